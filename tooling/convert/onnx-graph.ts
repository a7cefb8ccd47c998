/**
 * A small, deterministic ONNX graph builder: nodes in emission order, initializers in insertion
 * order, names from counters (never from timestamps or hashes of object identity), so the same
 * conversion always serializes to the same bytes.
 */
import { AttrType, ModelProto, OnnxType, type OnnxTypeName } from './onnx-proto';

export type AttrValue = number | number[] | string | { float: number } | { floats: number[] };

export interface Initializer {
  name: string;
  dtype: OnnxTypeName;
  dims: number[];
  bytes: Uint8Array;
}

interface NodeSpec {
  opType: string;
  /** '' = the ONNX domain; 'com.microsoft' = ORT contrib ops (QLinearAdd, ...). */
  domain: string;
  inputs: string[];
  outputs: string[];
  name: string;
  attrs: Record<string, AttrValue>;
}

export interface GraphIo {
  name: string;
  dtype: OnnxTypeName;
  /** Static sizes; a string is a symbolic dim (`'N'`: the batch of a dynamic-batch graph). */
  dims: (number | string)[];
  doc?: string;
}

export class OnnxGraph {
  private readonly nodes: NodeSpec[] = [];
  private readonly inits = new Map<string, Initializer>();
  private counter = 0;
  readonly inputs: GraphIo[] = [];
  readonly outputs: GraphIo[] = [];

  /** A fresh tensor name with a readable prefix. */
  fresh(prefix: string): string {
    this.counter += 1;
    return `${prefix}_${this.counter}`;
  }

  /** Appends a node and returns its output names. Integer attrs are ints; use {float} for floats. */
  node(opType: string, inputs: string[], attrs: Record<string, AttrValue> = {}, outputCount = 1, outNames?: string[]): string[] {
    return this.domainNode('', opType, inputs, attrs, outputCount, outNames);
  }

  /** A node of another operator domain (e.g. ORT's 'com.microsoft' contrib ops); imported at version 1. */
  domainNode(
    domain: string,
    opType: string,
    inputs: string[],
    attrs: Record<string, AttrValue> = {},
    outputCount = 1,
    outNames?: string[],
  ): string[] {
    const base = this.fresh(opType);
    const outputs = outNames ?? Array.from({ length: outputCount }, (_, i) => (outputCount === 1 ? base : `${base}:${i}`));
    this.nodes.push({ opType, domain, inputs, outputs, name: base, attrs });
    return outputs;
  }

  initializer(prefix: string, dtype: OnnxTypeName, dims: number[], bytes: Uint8Array): string {
    const name = this.fresh(prefix);
    this.inits.set(name, { name, dtype, dims, bytes });
    return name;
  }

  /** Total bytes of initializer payloads. */
  weightBytes(): number {
    let n = 0;
    for (const i of this.inits.values()) n += i.bytes.byteLength;
    return n;
  }

  /** Removes nodes whose outputs nobody uses (walks back from graph outputs). */
  prune(): void {
    const live = new Set(this.outputs.map((o) => o.name));
    const keep: boolean[] = new Array(this.nodes.length).fill(false);
    for (let i = this.nodes.length - 1; i >= 0; i--) {
      const n = this.nodes[i]!;
      if (n.outputs.some((o) => live.has(o))) {
        keep[i] = true;
        for (const inp of n.inputs) if (inp) live.add(inp);
      }
    }
    const kept = this.nodes.filter((_, i) => keep[i]);
    this.nodes.length = 0;
    this.nodes.push(...kept);
    for (const name of [...this.inits.keys()]) if (!live.has(name)) this.inits.delete(name);
  }

  serialize(meta: { docString: string; props: Record<string, string> }): Uint8Array {
    const io = (v: GraphIo) => ({
      name: v.name,
      docString: v.doc ?? '',
      type: {
        tensorType: {
          elemType: OnnxType[v.dtype],
          shape: { dim: v.dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) },
        },
      },
    });
    const message = ModelProto.fromObject({
      irVersion: 8,
      producerName: 'picscan-tfjs2onnx',
      producerVersion: '1',
      docString: meta.docString,
      opsetImport: [
        { domain: '', version: 17 },
        ...[...new Set(this.nodes.map((n) => n.domain).filter((d) => d !== ''))].sort().map((domain) => ({ domain, version: 1 })),
      ],
      metadataProps: Object.keys(meta.props)
        .sort()
        .map((key) => ({ key, value: meta.props[key] })),
      graph: {
        name: 'main',
        node: this.nodes.map((n) => ({
          input: n.inputs,
          output: n.outputs,
          name: n.name,
          opType: n.opType,
          domain: n.domain,
          attribute: Object.keys(n.attrs)
            .sort()
            .map((k) => encodeAttr(k, n.attrs[k]!)),
        })),
        initializer: [...this.inits.values()].map((t) => ({
          name: t.name,
          dims: t.dims,
          dataType: OnnxType[t.dtype],
          rawData: t.bytes,
        })),
        input: this.inputs.map(io),
        output: this.outputs.map(io),
      },
    });
    return ModelProto.encode(message).finish();
  }
}

function encodeAttr(name: string, v: AttrValue): object {
  if (typeof v === 'number') return { name, type: AttrType.int, i: v };
  if (typeof v === 'string') return { name, type: AttrType.string, s: Buffer.from(v, 'utf8') };
  if (Array.isArray(v)) return { name, type: AttrType.ints, ints: v };
  if ('float' in v) return { name, type: AttrType.float, f: v.float };
  return { name, type: AttrType.floats, floats: v.floats };
}
