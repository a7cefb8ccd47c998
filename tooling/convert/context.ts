/**
 * Conversion state: the ONNX graph being built and, per TF tensor, where its value lives
 * (an ONNX tensor name plus layout perm, or a folded constant not yet materialized).
 */
import { OnnxGraph } from './onnx-graph';
import { identity, isIdentity, samePerm, transposeBetween } from './layout';
import { numel, reshapeConst, transposeConst, type ConstTensor } from './tensor-data';
import type { TfAttr, TfNode } from './tfjs-source';
import type { TracedTensor } from './trace';

export interface Value {
  /** ONNX tensor name; empty while the value is an unmaterialized constant. */
  name: string;
  perm: number[];
  /** TF shape (static, batch 1; with a dynamic batch, axis 0 of runtime tensors is the batch). */
  shape: number[];
  dtype: 'float32' | 'int32' | 'bool';
  const?: ConstTensor;
}

/** Weights at least this large keep their compact source encoding in the ONNX file. */
const ENCODED_MIN_ELEMENTS = 64;

function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

export class Ctx {
  readonly g = new OnnxGraph();
  private readonly values = new Map<string, Value>();
  private readonly permCache = new Map<string, string>();

  /**
   * `traced` holds the batch-1 trace. `dynamicBatch`: the graph takes any batch on TF axis 0 (ONNX
   * dim 'N'); ops that would bake batch 1 into the graph emit batch-agnostic forms or refuse.
   */
  constructor(
    readonly traced: Map<string, TracedTensor>,
    readonly dynamicBatch = false,
  ) {}

  /** Throws when a dynamic-batch graph needs something that would fix or move its batch axis. */
  batchGuard(ok: boolean, node: TfNode, what: string): void {
    if (this.dynamicBatch && !ok) throw new Error(`${node.name}: ${what} is not batch-agnostic (dynamic batch)`);
  }

  set(key: string, v: Value): void {
    this.values.set(key, v);
  }

  get(key: string): Value {
    const v = this.values.get(key);
    if (!v) throw new Error(`no value for ${key}`);
    return v;
  }

  shapeOf(key: string): number[] {
    const t = this.traced.get(key);
    if (!t) throw new Error(`no traced shape for ${key}`);
    return t.shape;
  }

  /** The value as an ONNX tensor stored with layout `perm` (Transpose or permuted initializer). */
  as(v: Value, perm: number[]): string {
    if (v.const) return this.constant(transposeConst(v.const, perm), v.dtype);
    if (samePerm(v.perm, perm)) return v.name;
    const key = `${v.name}|${perm.join(',')}`;
    const hit = this.permCache.get(key);
    if (hit) return hit;
    const [out] = this.g.node('Transpose', [v.name], { perm: transposeBetween(v.perm, perm) });
    this.permCache.set(key, out!);
    return out!;
  }

  /** The value in TF layout. */
  tf(v: Value): string {
    return this.as(v, identity(v.shape.length));
  }

  /** A constant as an initializer; large encoded weights keep fp16 / uint8 storage. */
  constant(c: ConstTensor, dtype: Value['dtype'] = c.dtype): string {
    const dims = c.shape;
    if (dtype === 'float32' && c.encoding && numel(dims) >= ENCODED_MIN_ELEMENTS) {
      const enc = c.encoding;
      if (enc.kind === 'float16') {
        const raw = this.g.initializer('w16', 'float16', dims, bytesOf(enc.raw));
        return this.g.node('Cast', [raw], { to: 1 })[0]!;
      }
      // Affine uint8/uint16: a lookup table computed exactly as TF.js dequantizes (v*scale+min
      // in float64, stored as float32), gathered by the raw codes: bit-identical to TF.js.
      const levels = enc.raw instanceof Uint8Array ? 256 : 65536;
      const lut = new Float32Array(levels);
      for (let i = 0; i < levels; i++) lut[i] = i * enc.scale + enc.min;
      const raw = this.g.initializer('wq', enc.raw instanceof Uint8Array ? 'uint8' : 'uint16', dims, bytesOf(enc.raw));
      const lutName = this.g.initializer('lut', 'float', [levels], bytesOf(lut));
      const idx = this.g.node('Cast', [raw], { to: 6 })[0]!;
      return this.g.node('Gather', [lutName, idx], { axis: 0 })[0]!;
    }
    if (dtype === 'float32') return this.g.initializer('c', 'float', dims, bytesOf(Float32Array.from(c.values)));
    if (dtype === 'int32') return this.g.initializer('c', 'int32', dims, bytesOf(Int32Array.from(c.values)));
    return this.g.initializer('c', 'bool', dims, bytesOf(Uint8Array.from(c.values)));
  }

  int64(values: readonly number[]): string {
    return this.g.initializer('i64', 'int64', [values.length], bytesOf(BigInt64Array.from(values.map((v) => BigInt(v)))));
  }

  floatScalar(x: number): string {
    return this.g.initializer('f', 'float', [], bytesOf(Float32Array.of(x)));
  }

  /** A constant broadcast against a runtime tensor of rank `rank` stored with `perm`. */
  broadcastConst(c: ConstTensor, rank: number, perm: number[]): string {
    if (c.shape.length === 0 || isIdentity(perm)) return this.constant(c);
    const full = reshapeConst(c, [...new Array<number>(rank - c.shape.length).fill(1), ...c.shape]);
    return this.constant(transposeConst(full, perm));
  }

  runtime(name: string, perm: number[], shape: number[], dtype: Value['dtype'] = 'float32'): Value {
    return { name, perm, shape, dtype };
  }
}

const decode = (s: string): string => Buffer.from(s, 'base64').toString('utf8');

export const attrs = {
  str(n: TfNode, k: string, dflt = ''): string {
    const a = n.attr?.[k];
    return a?.s !== undefined ? decode(a.s) : dflt;
  },
  int(n: TfNode, k: string, dflt = 0): number {
    const a = n.attr?.[k];
    return a?.i !== undefined ? Number(a.i) : dflt;
  },
  float(n: TfNode, k: string, dflt = 0): number {
    const a: TfAttr | undefined = n.attr?.[k];
    return a?.f !== undefined ? Number(a.f) : dflt;
  },
  bool(n: TfNode, k: string, dflt = false): boolean {
    const a = n.attr?.[k];
    return a?.b !== undefined ? Boolean(a.b) : dflt;
  },
  ints(n: TfNode, k: string): number[] {
    return (n.attr?.[k]?.list?.i ?? []).map(Number);
  },
  strs(n: TfNode, k: string): string[] {
    return (n.attr?.[k]?.list?.s ?? []).map(decode);
  },
};

export type Handler = (ctx: Ctx, node: TfNode, inputs: Value[], outKeys: string[]) => Value[];
