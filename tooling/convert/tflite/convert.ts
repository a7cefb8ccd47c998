/**
 * TFLite (float / fp16-weight) -> ONNX opset 17, for the MediaPipe SSD detector. Supported ops:
 * DEQUANTIZE (fp16 constants only), CONV_2D, DEPTHWISE_CONV_2D, ADD, RESHAPE, CONCATENATION,
 * LOGISTIC, with fused NONE / RELU / RELU6 activations. Anything else throws.
 *
 * Layout: the ONNX input keeps the TFLite NHWC shape (project convention); one Transpose makes it
 * NCHW, convolutions and residual ADDs stay NCHW, and a tensor goes back to NHWC only where a
 * layout-dependent op (RESHAPE, CONCATENATION) needs it, so outputs have TFLite's shapes.
 *
 * Weights: fp16 buffers behind DEQUANTIZE become float16 initializers (re-ordered to ONNX's
 * OIHW) plus a Cast to float; TFLite's DEQUANTIZE is the same exact widening, so the arithmetic
 * matches and the file stays half the float32 size. ORT folds the Casts at session creation.
 */
import { OnnxGraph } from '../onnx-graph';
import { NCHW_TO_NHWC, NHWC_TO_NCHW, samePads, transposeBytes } from './geometry';
import {
  Activation,
  AddOptions,
  BuiltinOp,
  ConcatenationOptions,
  Conv2DOptions,
  DepthwiseConv2DOptions,
  Model,
  OptionsType,
  Padding,
  TensorType,
  type Operator,
} from './schema';

export interface TfliteOutputSpec {
  /** TFLite tensor name. */
  tensor: string;
  /** ONNX output name. */
  name: string;
  doc: string;
}

export interface TfliteConvertOptions {
  inputName: string;
  outputs: TfliteOutputSpec[];
}

export interface TfliteConverted {
  graph: OnnxGraph;
  inputShape: number[];
  outputShapes: number[][];
  /** Builtin op name -> count, in the source model. */
  ops: Record<string, number>;
}

/** A constant: raw little-endian values with their TFLite dtype. */
interface Const {
  dtype: 'float16' | 'float32' | 'int32';
  shape: number[];
  bytes: Uint8Array;
}

/** A runtime tensor in the ONNX graph; `nchw` when a 4-D NHWC TFLite tensor is stored channels-first. */
interface Runtime {
  name: string;
  shape: number[];
  nchw: boolean;
}

function elemSize(dtype: Const['dtype']): number {
  return dtype === 'float16' ? 2 : 4;
}

function transposeConst(c: Const, perm: number[]): Const {
  return { dtype: c.dtype, ...transposeBytes(c.bytes, c.shape, perm, elemSize(c.dtype)) };
}

export function convertTflite(bytes: Uint8Array, opts: TfliteConvertOptions): TfliteConverted {
  const model = Model.read(bytes);
  const subgraphs = model.subgraphs();
  if (subgraphs.length !== 1) throw new Error(`expected 1 subgraph, got ${subgraphs.length}`);
  const sg = subgraphs[0]!;
  const tensors = sg.tensors();
  const buffers = model.buffers();
  const codes = model.operatorCodes().map((c) => {
    const name = BuiltinOp[c.builtinCode()];
    if (!name || name === 'CUSTOM') throw new Error(`unsupported operator code ${c.builtinCode()} ${c.customCode()}`);
    return name;
  });
  const g = new OnnxGraph();
  const consts = new Map<number, Const>();
  const values = new Map<number, Runtime>();
  const ops: Record<string, number> = {};

  /** Constant data of tensor `i` (its own buffer, or the fp16 source of a DEQUANTIZE). */
  const constOf = (i: number): Const | undefined => {
    const known = consts.get(i);
    if (known) return known;
    const t = tensors[i]!;
    const data = buffers[t.buffer()]?.data();
    if (!data || data.byteLength === 0) return undefined;
    if (t.isQuantized()) throw new Error(`${t.name()}: integer-quantized tensors are not supported`);
    const type = t.type();
    const dtype =
      type === TensorType.FLOAT16 ? 'float16' : type === TensorType.FLOAT32 ? 'float32' : type === TensorType.INT32 ? 'int32' : null;
    if (!dtype) throw new Error(`${t.name()}: constant of type ${type}`);
    const c: Const = { dtype, shape: t.shape(), bytes: data.slice() };
    consts.set(i, c);
    return c;
  };

  /** A float constant as an ONNX float tensor name (float16 initializer + Cast when fp16). */
  const floatConst = (c: Const, prefix: string): string => {
    if (c.dtype === 'int32') throw new Error(`${prefix}: int32 constant where float expected`);
    const init = g.initializer(prefix, c.dtype === 'float16' ? 'float16' : 'float', c.shape, c.bytes);
    return c.dtype === 'float16' ? g.node('Cast', [init], { to: 1 })[0]! : init;
  };

  let relu6Bounds: [string, string] | undefined;
  const activation = (x: string, act: number, where: string): string => {
    if (act === Activation.NONE) return x;
    if (act === Activation.RELU) return g.node('Relu', [x])[0]!;
    if (act === Activation.RELU6) {
      relu6Bounds ??= [
        g.initializer('zero', 'float', [], new Uint8Array(new Float32Array([0]).buffer)),
        g.initializer('six', 'float', [], new Uint8Array(new Float32Array([6]).buffer)),
      ];
      return g.node('Clip', [x, ...relu6Bounds])[0]!;
    }
    throw new Error(`${where}: fused activation ${act}`);
  };

  const runtime = (i: number): Runtime => {
    const v = values.get(i);
    if (v) return v;
    if (constOf(i)) throw new Error(`${tensors[i]!.name()}: constant used as a runtime input (not supported)`);
    throw new Error(`${tensors[i]!.name()}: not computed yet`);
  };

  /** The runtime tensor in TFLite's own layout (NHWC), transposing back from NCHW if needed. */
  const asNhwc = (v: Runtime): string => (v.nchw ? g.node('Transpose', [v.name], { perm: NCHW_TO_NHWC })[0]! : v.name);
  const asNchw = (v: Runtime): string => (v.nchw ? v.name : g.node('Transpose', [v.name], { perm: NHWC_TO_NCHW })[0]!);

  // Graph input: NHWC as declared by the model; converted to NCHW lazily by the first conv.
  const inputs = sg.inputs();
  if (inputs.length !== 1) throw new Error(`expected 1 input, got ${inputs.length}`);
  const inTensor = tensors[inputs[0]!]!;
  if (inTensor.type() !== TensorType.FLOAT32) throw new Error('input must be float32');
  const inputShape = inTensor.shape();
  g.inputs.push({ name: opts.inputName, dtype: 'float', dims: inputShape });
  values.set(inputs[0]!, { name: opts.inputName, shape: inputShape, nchw: false });

  for (const op of sg.operators()) {
    const name = codes[op.opcodeIndex()]!;
    ops[name] = (ops[name] ?? 0) + 1;
    const ins = op.inputs();
    const outs = op.outputs();
    const outIdx = outs[0]!;
    const outShape = tensors[outIdx]!.shape();
    const where = `${name} -> ${tensors[outIdx]!.name()}`;
    if (outs.length !== 1) throw new Error(`${where}: ${outs.length} outputs`);
    switch (name) {
      case 'DEQUANTIZE': {
        const c = constOf(ins[0]!);
        if (!c || c.dtype !== 'float16') throw new Error(`${where}: only fp16 constant DEQUANTIZE is supported`);
        consts.set(outIdx, c); // stays fp16; widened by a Cast where it is used
        break;
      }
      case 'CONV_2D':
      case 'DEPTHWISE_CONV_2D':
        values.set(outIdx, convert2d(op, name, ins, outShape, where));
        break;
      case 'ADD': {
        const [a, b] = [runtime(ins[0]!), runtime(ins[1]!)];
        if (a.shape.join() !== b.shape.join()) throw new Error(`${where}: broadcasting ADD not supported`);
        const o = op.options(AddOptions, OptionsType.AddOptions);
        const both = a.nchw === b.nchw;
        const [x, y] = both ? [a.name, b.name] : [asNchw(a), asNchw(b)];
        const sum = g.node('Add', [x, y])[0]!;
        values.set(outIdx, { name: activation(sum, o?.activation() ?? 0, where), shape: outShape, nchw: both ? a.nchw : true });
        break;
      }
      case 'RESHAPE': {
        const x = runtime(ins[0]!);
        const shape = g.initializer('shape', 'int64', [outShape.length], new Uint8Array(new BigInt64Array(outShape.map(BigInt)).buffer));
        values.set(outIdx, { name: g.node('Reshape', [asNhwc(x), shape])[0]!, shape: outShape, nchw: false });
        break;
      }
      case 'CONCATENATION': {
        const o = op.options(ConcatenationOptions, OptionsType.ConcatenationOptions);
        const rank = outShape.length;
        const axis = ((o?.axis() ?? 0) + rank) % rank;
        const xs = ins.map((i) => runtime(i));
        const allNchw = rank === 4 && xs.every((v) => v.nchw);
        const onnxAxis = allNchw ? NHWC_TO_NCHW.indexOf(axis) : axis;
        const cat = g.node(
          'Concat',
          xs.map((v) => (allNchw ? v.name : asNhwc(v))),
          { axis: onnxAxis },
        )[0]!;
        values.set(outIdx, { name: activation(cat, o?.activation() ?? 0, where), shape: outShape, nchw: allNchw });
        break;
      }
      case 'LOGISTIC': {
        const x = runtime(ins[0]!);
        values.set(outIdx, { name: g.node('Sigmoid', [x.name])[0]!, shape: outShape, nchw: x.nchw });
        break;
      }
      default:
        throw new Error(`${where}: unsupported op`);
    }
  }

  function convert2d(op: Operator, name: string, ins: number[], outShape: number[], where: string): Runtime {
    const x = runtime(ins[0]!);
    const w = constOf(ins[1]!);
    const b = ins[2] !== undefined && ins[2] >= 0 ? constOf(ins[2]) : undefined;
    if (!w) throw new Error(`${where}: runtime filter`);
    if (ins[2] !== undefined && ins[2] >= 0 && !b) throw new Error(`${where}: runtime bias`);
    const depthwise = name === 'DEPTHWISE_CONV_2D';
    const o = depthwise
      ? op.options(DepthwiseConv2DOptions, OptionsType.DepthwiseConv2DOptions)
      : op.options(Conv2DOptions, OptionsType.Conv2DOptions);
    if (!o) throw new Error(`${where}: missing options`);
    const [, kh, kw] = w.shape as [number, number, number, number];
    const cin = x.shape[3]!;
    // CONV_2D filter [O, kh, kw, I] -> OIHW; DEPTHWISE [1, kh, kw, C*M] -> [C*M, 1, kh, kw], group C.
    const filter = depthwise ? transposeConst(w, [3, 0, 1, 2]) : transposeConst(w, [0, 3, 1, 2]);
    const strides = [o.strideH(), o.strideW()];
    const dilations = [o.dilationH(), o.dilationW()];
    const pads = o.padding() === Padding.VALID ? [0, 0, 0, 0] : samePads([x.shape[1]!, x.shape[2]!], [kh, kw], strides, dilations);
    const convIn = [asNchw(x), floatConst(filter, depthwise ? 'dw_filter' : 'filter')];
    if (b) convIn.push(floatConst(b, 'bias'));
    const y = g.node('Conv', convIn, { kernel_shape: [kh, kw], strides, dilations, pads, group: depthwise ? cin : 1 })[0]!;
    return { name: activation(y, o.activation(), where), shape: outShape, nchw: true };
  }

  const outputShapes: number[][] = [];
  const byName = new Map(tensors.map((t, i) => [t.name(), i]));
  for (const spec of opts.outputs) {
    const i = byName.get(spec.tensor);
    if (i === undefined) throw new Error(`no tensor ${spec.tensor}`);
    const v = runtime(i);
    g.node('Identity', [asNhwc(v)], {}, 1, [spec.name]);
    g.outputs.push({ name: spec.name, dtype: 'float', dims: v.shape, doc: spec.doc });
    outputShapes.push(v.shape);
  }
  g.prune();
  return { graph: g, inputShape, outputShapes, ops };
}
