/**
 * A decoded ONNX model as plain, editable data: nodes, initializers as typed arrays, graph inputs
 * and outputs. Reads and writes only the onnx.proto fields the project's converters emit
 * (onnx-proto.ts), which is every field of the models in models/.
 */
import { halfToFloat } from '../fp16';
import { ModelProto, OnnxType } from '../onnx-proto';

export interface OnnxAttr {
  name: string;
  type: number;
  f?: number;
  i?: number;
  s?: Uint8Array;
  floats?: number[];
  ints?: number[];
}

export interface OnnxNode {
  name: string;
  opType: string;
  domain: string;
  input: string[];
  output: string[];
  attribute: OnnxAttr[];
}

export interface OnnxInit {
  name: string;
  dims: number[];
  dataType: number;
  rawData: Uint8Array;
}

/** The decoded ModelProto as a plain object (longs as numbers). */
export interface OnnxModel {
  irVersion: number;
  producerName: string;
  producerVersion: string;
  docString: string;
  opsetImport: { domain: string; version: number }[];
  metadataProps: { key: string; value: string }[];
  graph: {
    name: string;
    docString?: string;
    node: OnnxNode[];
    initializer: OnnxInit[];
    input: unknown[];
    output: { name: string; type: unknown; docString?: string }[];
  };
}

export function decodeModel(bytes: Uint8Array): OnnxModel {
  const msg = ModelProto.decode(bytes);
  const m = ModelProto.toObject(msg, { longs: Number, bytes: Uint8Array, defaults: false, arrays: true }) as OnnxModel;
  for (const n of m.graph.node) {
    n.domain ??= '';
    n.attribute ??= [];
    n.input ??= [];
    n.output ??= [];
  }
  for (const i of m.graph.initializer) {
    i.dims ??= [];
    // Copy to an aligned buffer: decoded bytes are views into the file buffer at any offset.
    i.rawData = new Uint8Array(i.rawData ?? new Uint8Array(0));
  }
  m.opsetImport ??= [];
  m.metadataProps ??= [];
  return m;
}

export function encodeModel(m: OnnxModel): Uint8Array {
  return ModelProto.encode(ModelProto.fromObject(m)).finish();
}

/** Float32 values of a float32 or float16 initializer. */
export function floatsOf(init: OnnxInit): Float32Array {
  if (init.dataType === OnnxType.float)
    return new Float32Array(init.rawData.buffer, init.rawData.byteOffset, init.rawData.byteLength / 4).slice();
  if (init.dataType === OnnxType.float16) {
    const h = new Uint16Array(init.rawData.buffer, init.rawData.byteOffset, init.rawData.byteLength / 2);
    return Float32Array.from(h, halfToFloat);
  }
  throw new Error(`initializer ${init.name}: dtype ${init.dataType} is not a float type`);
}

export function uint8sOf(init: OnnxInit): Uint8Array {
  if (init.dataType !== OnnxType.uint8) throw new Error(`initializer ${init.name}: dtype ${init.dataType} is not uint8`);
  return init.rawData;
}

export function floatInit(name: string, dims: number[], values: Float32Array): OnnxInit {
  return {
    name,
    dims,
    dataType: OnnxType.float,
    rawData: new Uint8Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength)),
  };
}

export function typedInit(name: string, dims: number[], dataType: number, values: Int8Array | Uint8Array | Int32Array): OnnxInit {
  return { name, dims, dataType, rawData: new Uint8Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength)) };
}

export const intAttr = (name: string, i: number): OnnxAttr => ({ name, type: 2, i });
export const floatAttr = (name: string, f: number): OnnxAttr => ({ name, type: 1, f });

/** Index helpers over a model's graph, rebuilt after each edit pass. */
export class GraphIndex {
  readonly producer = new Map<string, OnnxNode>();
  readonly consumers = new Map<string, OnnxNode[]>();
  readonly inits = new Map<string, OnnxInit>();
  readonly graphOutputs: Set<string>;

  constructor(readonly model: OnnxModel) {
    for (const n of model.graph.node) {
      for (const o of n.output) this.producer.set(o, n);
      for (const i of n.input) if (i) (this.consumers.get(i) ?? this.consumers.set(i, []).get(i)!).push(n);
    }
    for (const i of model.graph.initializer) this.inits.set(i.name, i);
    this.graphOutputs = new Set(model.graph.output.map((o) => o.name));
  }

  /** The only consumer of a tensor, or undefined when it has several or is a graph output. */
  soleConsumer(tensor: string): OnnxNode | undefined {
    const c = this.consumers.get(tensor);
    return c?.length === 1 && !this.graphOutputs.has(tensor) ? c[0] : undefined;
  }

  /** A constant's float values: a float initializer, or Cast(float16 initializer), or Gather(lut, Cast(uint8)). */
  constFloats(tensor: string): { dims: number[]; values: Float32Array } | undefined {
    const init = this.inits.get(tensor);
    if (init)
      return init.dataType === OnnxType.float || init.dataType === OnnxType.float16
        ? { dims: init.dims, values: floatsOf(init) }
        : undefined;
    const p = this.producer.get(tensor);
    if (p?.opType === 'Cast' && p.input.length === 1) {
      const src = this.inits.get(p.input[0]!);
      if (src && src.dataType === OnnxType.float16) return { dims: src.dims, values: floatsOf(src) };
    }
    if (p?.opType === 'Gather' && p.input.length === 2) {
      const lut = this.constFloats(p.input[0]!);
      const idxNode = this.producer.get(p.input[1]!);
      const idxInit = this.inits.get(idxNode?.opType === 'Cast' ? idxNode.input[0]! : p.input[1]!);
      if (lut && idxInit && idxInit.dataType === OnnxType.uint8) {
        const idx = uint8sOf(idxInit);
        return { dims: idxInit.dims, values: Float32Array.from(idx, (k) => lut.values[k]!) };
      }
    }
    return undefined;
  }
}

/** Per-channel values of a constant broadcast against NCHW [N,C,H,W] (scalar, [C] or [1,C,1,1]), else undefined. */
export function perChannel(values: Float32Array, dims: number[], channels: number): Float32Array | undefined {
  const size = dims.reduce((a, b) => a * b, 1);
  if (size === 1) return new Float32Array(channels).fill(values[0]!);
  const ok = size === channels && (dims.length === 1 || (dims.length === 4 && dims[0] === 1 && dims[1] === channels));
  return ok ? values : undefined;
}

/** Drops nodes and initializers no graph output depends on. */
export function prune(m: OnnxModel): void {
  const live = new Set(m.graph.output.map((o) => o.name));
  const keep = new Array<boolean>(m.graph.node.length).fill(false);
  for (let k = m.graph.node.length - 1; k >= 0; k--) {
    const n = m.graph.node[k]!;
    if (n.output.some((o) => live.has(o))) {
      keep[k] = true;
      for (const i of n.input) if (i) live.add(i);
    }
  }
  m.graph.node = m.graph.node.filter((_, k) => keep[k]);
  m.graph.initializer = m.graph.initializer.filter((i) => live.has(i.name));
}

/** Replaces every use of `from` (node inputs and graph outputs) by `to`. */
export function renameUses(m: OnnxModel, from: string, to: string, except?: OnnxNode): void {
  for (const n of m.graph.node) if (n !== except) n.input = n.input.map((i) => (i === from ? to : i));
}
