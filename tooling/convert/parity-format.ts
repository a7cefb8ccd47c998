/**
 * Stored TF.js reference outputs (test/fixtures/parity/<id>.json): small outputs in full, large
 * ones as a strided sample plus the set of elements above a detection threshold, which the test
 * compares as a set (ties and near-threshold scores may flip between runtimes).
 */
export const MAX_FULL = 2048;
export const SAMPLE = 512;

export interface StoredOutput {
  dims: number[];
  /** Element stride of `values` (1 = every element). */
  stride: number;
  values: number[];
  /** Indices whose (activated) score exceeds `threshold`. */
  above?: { threshold: number; activation: 'none' | 'sigmoid'; indices: number[] };
}

export interface StoredCase {
  name: string;
  inputSha256: string;
  outputs: Record<string, StoredOutput>;
}

export interface ParityFile {
  model: string;
  generatedBy: string;
  cases: StoredCase[];
}

/** Score outputs compared as detection sets: threshold and whether they hold logits. */
export const detectionOutputs: Record<
  string,
  Record<string, { threshold: number; activation: 'none' | 'sigmoid'; channel?: { every: number; at: number } }>
> = {
  'blazeface-back': { scores_16: { threshold: 0.5, activation: 'sigmoid' }, scores_32: { threshold: 0.5, activation: 'sigmoid' } },
  centernet: { heatmap: { threshold: 0.3, activation: 'none' } },
};

export function strideFor(n: number): number {
  return n <= MAX_FULL ? 1 : Math.ceil(n / SAMPLE);
}

export function aboveIndices(
  values: ArrayLike<number>,
  d: { threshold: number; activation: 'none' | 'sigmoid'; channel?: { every: number; at: number } },
): number[] {
  const out: number[] = [];
  const every = d.channel?.every ?? 1;
  const at = d.channel?.at ?? 0;
  for (let i = at; i < values.length; i += every) {
    const v = d.activation === 'sigmoid' ? 1 / (1 + Math.exp(-values[i]!)) : values[i]!;
    if (v > d.threshold) out.push(i);
  }
  return out;
}
