/**
 * Layout permutations. Every converted tensor carries `perm`: ONNX dim j holds TF dim perm[j].
 * TF NHWC activations live as NCHW in ONNX (perm [0,3,1,2]) between convolutions, so no
 * Transpose is emitted around each conv; ops that cannot remap axes get the TF layout back.
 */
export const identity = (rank: number): number[] => Array.from({ length: rank }, (_, i) => i);

/** NHWC-style TF tensor of any rank >= 3 -> channels-first ONNX: [0, r-1, 1, ..., r-2]. */
export const channelsFirst = (rank: number): number[] => [0, rank - 1, ...Array.from({ length: rank - 2 }, (_, i) => i + 1)];

export const isIdentity = (perm: readonly number[]): boolean => perm.every((p, i) => p === i);

export const samePerm = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((p, i) => p === b[i]);

/** ONNX dims for a TF shape under perm. */
export const permuteShape = (shape: readonly number[], perm: readonly number[]): number[] => perm.map((p) => shape[p]!);

/** The ONNX axis where TF axis `tfAxis` lives. */
export const onnxAxis = (perm: readonly number[], tfAxis: number): number => {
  const a = tfAxis < 0 ? tfAxis + perm.length : tfAxis;
  const j = perm.indexOf(a);
  if (j < 0) throw new Error(`axis ${tfAxis} not in perm ${perm}`);
  return j;
};

/** Transpose attr that turns a tensor stored with `from` into one stored with `to`. */
export const transposeBetween = (from: readonly number[], to: readonly number[]): number[] => to.map((t) => from.indexOf(t));

/** Perm after removing TF axes `removed` (dim-dropping reduction or squeeze). */
export function dropAxes(perm: readonly number[], removed: readonly number[]): number[] {
  const kept = perm.filter((p) => !removed.includes(p));
  const sorted = [...kept].sort((a, b) => a - b);
  return kept.map((p) => sorted.indexOf(p));
}
