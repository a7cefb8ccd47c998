/**
 * One ONNX Runtime session: the only place that calls onnxruntime-node. Feeds are checked against
 * the model's declared inputs before running (names and dims), and ORT failures are wrapped as
 * `model-failed` with the feed shapes, so callers see which model and which tensor went wrong.
 */
import * as ort from 'onnxruntime-node';
import { AppError, throwIfAborted } from '../core';
import { gated } from './run-gate';
import { fitsShape, type FloatTensor, type TensorMap } from './tensor';

export type { FloatTensor, TensorMap } from './tensor';

/** What the session checks feeds against (from the manifest). */
export interface SessionIo {
  modelId: string;
  /** `dtype` (default float32): integer inputs of quantised models get the float feeds rounded and clamped. */
  inputs: readonly {
    name: string;
    shape: readonly number[];
    dtype?: 'float32' | 'uint8' | 'int8';
    /**
     * With `trim`, the spatial dims may be any multiple of `trim` up to `shape`'s; with `wideFrame`,
     * any `step`·k + `offset` (free-spatial graphs).
     */
    preprocess?: { layout: 'NHWC' | 'NCHW'; trim?: number; wideFrame?: { step: number; offset: number } };
  }[];
}

/** Whether feed `dims` fit an input: equal to its shape, a trimmed frame of it (`preprocess.trim`) or a wide frame (`preprocess.wideFrame`). */
function dimsFit(input: SessionIo['inputs'][number], dims: readonly number[]): boolean {
  const { shape, preprocess: p } = input;
  if (dims.length !== shape.length) return false;
  const spatial = p?.trim || p?.wideFrame ? (p.layout === 'NHWC' ? [1, 2] : [2, 3]) : [];
  // The batch (axis 0) may be dynamic (fitsShape); a trimmed input's spatial dims may be smaller,
  // a wide frame's any step·k + offset.
  const wide = p?.wideFrame;
  return dims.every((d, i) =>
    spatial.includes(i)
      ? wide
        ? d === shape[i] || (d > wide.offset && (d - wide.offset) % wide.step === 0)
        : d >= 1 && d <= shape[i]! && (d % p!.trim! === 0 || d === shape[i])
      : i === 0
        ? fitsShape([d], [shape[0]!])
        : d === shape[i],
  );
}

/** A feed in the input's element type: float32 as is, uint8/int8 rounded and clamped to the type's range. */
function ortFeed(v: FloatTensor, dtype: 'float32' | 'uint8' | 'int8' = 'float32'): ort.Tensor {
  if (dtype === 'float32') return new ort.Tensor('float32', v.data, v.dims);
  if (dtype === 'uint8') return new ort.Tensor('uint8', toUint8(v.data), v.dims);
  const out = new Int8Array(v.data.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.min(127, Math.max(-128, roundHalfToEven(v.data[i]!)));
  return new ort.Tensor('int8', out, v.dims);
}

/**
 * Float values as bytes the way ONNX's QuantizeLinear makes them: clamped to 0..255, rounded half
 * to even (NaN → 0). A clamped array does exactly this natively; the result views its bytes.
 */
export function toUint8(values: Float32Array): Uint8Array {
  const clamped = new Uint8ClampedArray(values.length);
  clamped.set(values);
  return new Uint8Array(clamped.buffer);
}

/** Rounds to the nearest integer, ties to the even one (as `toUint8`). */
function roundHalfToEven(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Outputs as float32 whatever their element type (quantised scores stay in their integer units). */
export function asFloat32(data: ort.Tensor['data']): Float32Array {
  if (data instanceof Float32Array) return data;
  // Typed arrays of numbers convert natively; 64-bit integers (an ArgMax output) are BigInts, one
  // Number() each (a plain loop: Float32Array.from with a map function is ~6× slower, 17 ms for
  // DeepLab's 321×321 classes).
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
    const out = new Float32Array(data.length);
    for (let i = 0; i < data.length; i++) out[i] = Number(data[i]!);
    return out;
  }
  return new Float32Array(data as ArrayLike<number>);
}

/**
 * ORT session config entry that keeps integer kernels exact on every x86 CPU. Without VNNI
 * (AVX2, AVX-512 without VNNI) onnxruntime's u8 × s8 kernels add pairs of products in a saturating
 * int16 (`vpmaddubsw`: 2 · 255 · 127 overflows it), so the int8 models and the int8-filter TFLite
 * graphs drift from their float and TFLite references (measured on an AVX2 machine, cosine to the
 * float model: gear age 0.41, NSFW features 0.72, faceres descriptor 0.93; docs/models.md
 * "Exact integer kernels"). With this entry ORT rewrites s8 weights to u8 on such CPUs at load
 * (exact u8 × u8 kernels, slower than the saturating ones but still faster than float) and changes
 * nothing where VNNI computes u8 × s8 exactly. Filters within −63..63 cannot saturate and keep the
 * fast kernel: the quantiser narrows the costly filters of the int8 models where that costs no
 * accuracy (tooling/convert/quantize/narrow-weights.ts).
 */
export const EXACT_INTEGER_KERNELS = { x64quantprecision: '1' } as const;

/** Session tuning. */
export interface SessionOptions {
  /** Threads inside one operator; >= 1. */
  intraOpNumThreads: number;
  /** ORT graph optimisation; default on ('all'). Off only for debugging. */
  graphOptimization?: boolean;
  /**
   * ORT's memory pattern (default on): after a run it plans one block for all intermediate tensors
   * of that input shape. For the per-face models, whose batch (the faces of an image) changes from
   * image to image, each batch size gets a plan and a block of its own, and the CPU arena grows to
   * hold them; off, tensors are allocated one by one from the arena and reuse its freed chunks.
   * Measured (docs/benchmarks.md "Batches"): off for the dynamic-batch models, lower peak RSS at
   * the same speed; off for CenterNet too (its trimmed frame also varies), a further ≈ 20 MB but
   * ≈ 10 % more CPU per image, so the detector keeps it.
   */
  memoryPattern?: boolean;
}

/** An open model. `run` may be called concurrently; `dispose` releases native memory. */
export interface Session {
  readonly modelId: string;
  readonly outputNames: readonly string[];
  run(feeds: TensorMap, signal?: AbortSignal): Promise<TensorMap>;
  dispose(): Promise<void>;
}

const shapeText = (dims: readonly number[]): string => `[${dims.join(',')}]`;

/** Names missing, unexpected or mis-shaped feeds; throws `model-failed` (a caller bug, never user input). */
export function validateFeeds(io: SessionIo, feeds: TensorMap): void {
  const expected = new Map(io.inputs.map((i) => [i.name, i]));
  const missing = [...expected.keys()].filter((n) => !(n in feeds));
  if (missing.length)
    throw new AppError('model-failed', `Model ${io.modelId}: missing feed(s) ${missing.join(', ')}`, {
      details: { model: io.modelId, missing: missing.join(',') },
    });
  for (const [name, t] of Object.entries(feeds)) {
    const input = expected.get(name);
    if (!input)
      throw new AppError('model-failed', `Model ${io.modelId}: unexpected feed ${name}`, { details: { model: io.modelId, feed: name } });
    const size = t.dims.reduce((a, b) => a * b, 1);
    if (!dimsFit(input, t.dims) || size !== t.data.length) {
      const shape = input.shape;
      throw new AppError(
        'model-failed',
        `Model ${io.modelId}: feed ${name} has shape ${shapeText(t.dims)} (${t.data.length} values), expected ${shapeText(shape)}`,
        {
          details: { model: io.modelId, feed: name, got: shapeText(t.dims), expected: shapeText(shape) },
        },
      );
    }
  }
}

function shapesOf(feeds: TensorMap): Record<string, string> {
  return Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, shapeText(v.dims)]));
}

/**
 * Opens a model from its bytes (the engine has read them to verify the checksum).
 * Throws `model-failed` if ORT rejects the model.
 */
export async function openSession(model: Uint8Array, io: SessionIo, opts: SessionOptions): Promise<Session> {
  let s: ort.InferenceSession;
  try {
    // Gated like runs: loading is native work on this thread too.
    s = await gated(() =>
      ort.InferenceSession.create(model, {
        intraOpNumThreads: opts.intraOpNumThreads,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        enableMemPattern: opts.memoryPattern ?? true,
        graphOptimizationLevel: opts.graphOptimization === false ? 'disabled' : 'all',
        // Idle pool threads sleep instead of spinning: a desktop app shares its cores with the UI
        // and other jobs, and spinning workers on a busy 2-core machine made 2 threads slower than 1.
        extra: { session: { intra_op: { allow_spinning: '0' }, ...EXACT_INTEGER_KERNELS } },
      }),
    );
  } catch (err) {
    throw new AppError('model-failed', `Model ${io.modelId} could not be loaded: ${(err as Error).message}`, {
      cause: err,
      details: { model: io.modelId },
    });
  }
  const dtypes = new Map(io.inputs.map((i) => [i.name, i.dtype]));
  return {
    modelId: io.modelId,
    outputNames: s.outputNames,
    async run(feeds, signal) {
      throwIfAborted(signal);
      validateFeeds(io, feeds);
      const ortFeeds: Record<string, ort.Tensor> = {};
      for (const [k, v] of Object.entries(feeds)) ortFeeds[k] = ortFeed(v, dtypes.get(k));
      let out: ort.InferenceSession.ReturnType;
      try {
        out = await gated(() => s.run(ortFeeds));
      } catch (err) {
        throw new AppError('model-failed', `Model ${io.modelId} failed: ${(err as Error).message}`, {
          cause: err,
          details: { model: io.modelId, ...shapesOf(feeds) },
        });
      }
      // ORT cannot interrupt a running graph; a cancellation that arrived meanwhile wins here.
      throwIfAborted(signal);
      const result: TensorMap = {};
      for (const [k, v] of Object.entries(out)) result[k] = { data: asFloat32(v.data), dims: v.dims };
      return result;
    },
    async dispose() {
      await s.release();
    },
  };
}
