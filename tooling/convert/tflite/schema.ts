/**
 * Minimal typed reader for the TFLite flatbuffer (tensorflow/lite/schema/schema.fbs, file
 * identifier "TFL3"): only the tables and builtin options the converter needs. Field ids follow
 * the schema's declaration order (vtable slot = 4 + 2 * id; a union takes two ids: type, value).
 */
import { ByteBuffer } from 'flatbuffers';

/** schema.fbs `enum TensorType`. */
export const TensorType = {
  FLOAT32: 0,
  FLOAT16: 1,
  INT32: 2,
  UINT8: 3,
  INT64: 4,
  STRING: 5,
  BOOL: 6,
  INT16: 7,
  COMPLEX64: 8,
  INT8: 9,
} as const;

/** schema.fbs `enum BuiltinOperator` (the codes this converter knows by name). */
export const BuiltinOp: Record<number, string> = {
  0: 'ADD',
  1: 'AVERAGE_POOL_2D',
  2: 'CONCATENATION',
  3: 'CONV_2D',
  4: 'DEPTHWISE_CONV_2D',
  6: 'DEQUANTIZE',
  9: 'FULLY_CONNECTED',
  14: 'LOGISTIC',
  17: 'MAX_POOL_2D',
  18: 'MUL',
  19: 'RELU',
  21: 'RELU6',
  22: 'RESHAPE',
  23: 'RESIZE_BILINEAR',
  25: 'SOFTMAX',
  28: 'TANH',
  32: 'CUSTOM',
  34: 'PAD',
  41: 'SUB',
  43: 'SQUEEZE',
  45: 'STRIDED_SLICE',
  56: 'ARG_MAX',
  114: 'QUANTIZE',
};

/** schema.fbs `enum ActivationFunctionType`. */
export const Activation = { NONE: 0, RELU: 1, RELU_N1_TO_1: 2, RELU6: 3, TANH: 4, SIGN_BIT: 5 } as const;

/** schema.fbs `enum Padding`. */
export const Padding = { SAME: 0, VALID: 1 } as const;

/** schema.fbs `union BuiltinOptions` member indices (1-based; 0 = NONE). */
export const OptionsType = {
  Conv2DOptions: 1,
  DepthwiseConv2DOptions: 2,
  Pool2DOptions: 5,
  SoftmaxOptions: 9,
  ConcatenationOptions: 10,
  AddOptions: 11,
  ResizeBilinearOptions: 15,
  ReshapeOptions: 17,
  ArgMaxOptions: 40,
} as const;

/** Base for a table at `pos`: field access by schema id. */
class Table {
  constructor(
    protected readonly bb: ByteBuffer,
    protected readonly pos: number,
  ) {}

  /** Absolute offset of field `id`'s value, or 0 when absent (default applies). */
  protected field(id: number): number {
    const o = this.bb.__offset(this.pos, 4 + 2 * id);
    return o ? this.pos + o : 0;
  }
  protected i8(id: number, dflt = 0): number {
    const o = this.field(id);
    return o ? this.bb.readInt8(o) : dflt;
  }
  protected u8(id: number, dflt = 0): number {
    const o = this.field(id);
    return o ? this.bb.readUint8(o) : dflt;
  }
  protected i32(id: number, dflt = 0): number {
    const o = this.field(id);
    return o ? this.bb.readInt32(o) : dflt;
  }
  protected u32(id: number, dflt = 0): number {
    const o = this.field(id);
    return o ? this.bb.readUint32(o) : dflt;
  }
  protected f32(id: number, dflt = 0): number {
    const o = this.field(id);
    return o ? this.bb.readFloat32(o) : dflt;
  }
  protected str(id: number): string {
    const o = this.field(id);
    return o ? (this.bb.__string(o) as string) : '';
  }
  /** Start (absolute byte offset) and length of a vector field. */
  protected vec(id: number): { start: number; length: number } {
    const o = this.field(id);
    return o ? { start: this.bb.__vector(o), length: this.bb.__vector_len(o) } : { start: 0, length: 0 };
  }
  protected i32s(id: number): number[] {
    const { start, length } = this.vec(id);
    return Array.from({ length }, (_, i) => this.bb.readInt32(start + 4 * i));
  }
  protected bytes(id: number): Uint8Array {
    const { start, length } = this.vec(id);
    return this.bb.bytes().subarray(start, start + length);
  }
  protected f32s(id: number): number[] {
    const { start, length } = this.vec(id);
    return Array.from({ length }, (_, i) => this.bb.readFloat32(start + 4 * i));
  }
  protected i64s(id: number): number[] {
    const { start, length } = this.vec(id);
    return Array.from({ length }, (_, i) => Number(this.bb.readInt64(start + 8 * i)));
  }
  /** Tables of a vector of tables. */
  protected tables<T>(id: number, make: (bb: ByteBuffer, pos: number) => T): T[] {
    const { start, length } = this.vec(id);
    return Array.from({ length }, (_, i) => make(this.bb, this.bb.__indirect(start + 4 * i)));
  }
  /** A sub-table field, or null when absent. */
  protected table<T>(id: number, make: (bb: ByteBuffer, pos: number) => T): T | null {
    const o = this.field(id);
    return o ? make(this.bb, this.bb.__indirect(o)) : null;
  }
}

export class Buffer extends Table {
  /** `data:[ubyte]` (id 0). Models over 2 GB use offset/size instead; not supported here. */
  data(): Uint8Array {
    if (this.field(1)) throw new Error('external buffer offsets (models > 2 GB) are not supported');
    return this.bytes(0);
  }
}

export class Tensor extends Table {
  shape(): number[] {
    return this.i32s(0);
  }
  type(): number {
    return this.i8(1, TensorType.FLOAT32);
  }
  buffer(): number {
    return this.u32(2);
  }
  name(): string {
    return this.str(3);
  }
  /** true when `quantization` (id 4) carries scales (an integer-quantized tensor). */
  isQuantized(): boolean {
    return this.quantization() !== null;
  }
  /** Affine quantization `real = scale * (q - zeroPoint)`, or null for a float tensor. */
  quantization(): Quantization | null {
    const q = this.table(4, (bb, pos) => new QuantizationParameters(bb, pos));
    if (!q || q.scales().length === 0) return null;
    const scales = q.scales();
    const zp = q.zeroPoints();
    return { scales, zeroPoints: zp.length ? zp : scales.map(() => 0), axis: q.quantizedDimension() };
  }
}

/** Per-tensor (one scale) or per-axis (one scale per index of `axis`) affine quantization. */
export interface Quantization {
  scales: number[];
  zeroPoints: number[];
  axis: number;
}

class QuantizationParameters extends Table {
  /** `scale:[float]` is id 2 (after min, max). */
  scales(): number[] {
    return this.f32s(2);
  }
  /** `zero_point:[long]` (id 3). */
  zeroPoints(): number[] {
    return this.i64s(3);
  }
  /** `quantized_dimension:int` (id 6, after details_type/details). */
  quantizedDimension(): number {
    return this.i32(6);
  }
}

export class Operator extends Table {
  opcodeIndex(): number {
    return this.u32(0);
  }
  inputs(): number[] {
    return this.i32s(1);
  }
  outputs(): number[] {
    return this.i32s(2);
  }
  optionsType(): number {
    return this.u8(3);
  }
  /** The builtin options table (union value, id 4), read as `T`. */
  options<T extends Table>(make: new (bb: ByteBuffer, pos: number) => T, expected: number): T | null {
    const t = this.optionsType();
    if (t === 0) return null;
    if (t !== expected) throw new Error(`builtin options type ${t}, expected ${expected}`);
    return this.table(4, (bb, pos) => new make(bb, pos));
  }
}

export class OperatorCode extends Table {
  /** max(deprecated_builtin_code (id 0, byte), builtin_code (id 3, int)), as TFLite's GetBuiltinCode. */
  builtinCode(): number {
    return Math.max(this.i8(0), this.i32(3));
  }
  customCode(): string {
    return this.str(1);
  }
  version(): number {
    return this.i32(2, 1);
  }
}

export class SubGraph extends Table {
  tensors(): Tensor[] {
    return this.tables(0, (bb, pos) => new Tensor(bb, pos));
  }
  inputs(): number[] {
    return this.i32s(1);
  }
  outputs(): number[] {
    return this.i32s(2);
  }
  /** Absolute byte offset of the `outputs` int32 vector (for re-pointing outputs in a copy). */
  outputsOffset(): number {
    return this.vec(2).start;
  }
  operators(): Operator[] {
    return this.tables(3, (bb, pos) => new Operator(bb, pos));
  }
  name(): string {
    return this.str(4);
  }
}

export class Model extends Table {
  static read(bytes: Uint8Array): Model {
    const bb = new ByteBuffer(bytes);
    const ident = String.fromCharCode(...bytes.subarray(4, 8));
    if (ident !== 'TFL3') throw new Error(`not a TFLite model (identifier ${JSON.stringify(ident)})`);
    return new Model(bb, bb.readInt32(0));
  }
  version(): number {
    return this.u32(0);
  }
  operatorCodes(): OperatorCode[] {
    return this.tables(1, (bb, pos) => new OperatorCode(bb, pos));
  }
  subgraphs(): SubGraph[] {
    return this.tables(2, (bb, pos) => new SubGraph(bb, pos));
  }
  description(): string {
    return this.str(3);
  }
  buffers(): Buffer[] {
    return this.tables(4, (bb, pos) => new Buffer(bb, pos));
  }
}

export class Conv2DOptions extends Table {
  padding(): number {
    return this.i8(0);
  }
  strideW(): number {
    return this.i32(1);
  }
  strideH(): number {
    return this.i32(2);
  }
  activation(): number {
    return this.i8(3);
  }
  dilationW(): number {
    return this.i32(4, 1);
  }
  dilationH(): number {
    return this.i32(5, 1);
  }
}

export class DepthwiseConv2DOptions extends Table {
  padding(): number {
    return this.i8(0);
  }
  strideW(): number {
    return this.i32(1);
  }
  strideH(): number {
    return this.i32(2);
  }
  depthMultiplier(): number {
    return this.i32(3);
  }
  activation(): number {
    return this.i8(4);
  }
  dilationW(): number {
    return this.i32(5, 1);
  }
  dilationH(): number {
    return this.i32(6, 1);
  }
}

export class ConcatenationOptions extends Table {
  axis(): number {
    return this.i32(0);
  }
  activation(): number {
    return this.i8(1);
  }
}

export class AddOptions extends Table {
  activation(): number {
    return this.i8(0);
  }
}

export class ReshapeOptions extends Table {
  newShape(): number[] {
    return this.i32s(0);
  }
}

export class Pool2DOptions extends Table {
  padding(): number {
    return this.i8(0);
  }
  strideW(): number {
    return this.i32(1);
  }
  strideH(): number {
    return this.i32(2);
  }
  filterWidth(): number {
    return this.i32(3);
  }
  filterHeight(): number {
    return this.i32(4);
  }
  activation(): number {
    return this.i8(5);
  }
}

export class SoftmaxOptions extends Table {
  beta(): number {
    return this.f32(0, 0);
  }
}

export class ResizeBilinearOptions extends Table {
  /** ids 0, 1 are the deprecated new_height/new_width. */
  alignCorners(): boolean {
    return this.u8(2) !== 0;
  }
  halfPixelCenters(): boolean {
    return this.u8(3) !== 0;
  }
}

export class ArgMaxOptions extends Table {
  /** TensorType of the index output. */
  outputType(): number {
    return this.i8(0, TensorType.INT64);
  }
}
