/**
 * Integer-quantized TFLite (uint8 / int8 tensors, per-tensor or per-axis affine quantization) ->
 * ONNX opset 17 + ORT contrib ops, for the Coral MobileNetV2 classifier and DeepLabV3 segmenter.
 *
 * Mode `qlinear` (shipped): explicit quantized operators, so ONNX Runtime runs integer kernels
 * and nothing depends on its QDQ fusion passes:
 *   CONV_2D / DEPTHWISE_CONV_2D -> QLinearConv (uint8/int8 weights, int32 bias, group = C for
 *     depthwise), ADD -> com.microsoft QLinearAdd, global AVERAGE_POOL_2D ->
 *     com.microsoft QLinearGlobalAveragePool, RESIZE_BILINEAR -> Cast/Resize/round half up/Cast
 *     (TFLite rounds the interpolated integers; ORT's integer Resize would truncate them),
 *     CONCATENATION -> Concat (inputs on the output's scale) or DQ/Concat/Q, QUANTIZE ->
 *     DequantizeLinear + QuantizeLinear (requantize), SOFTMAX -> DQ/Softmax/Q (1 001 values),
 *     ARG_MAX -> ArgMax on the integers, RESHAPE -> Reshape.
 *   Fused activations become a Clip in the integer domain with TFLite's bounds
 *   (CalculateActivationRangeQuantized), emitted only when narrower than the type's range
 *   (a ReLU6 output quantized to [0, 6] already saturates there).
 * Mode `float`: the same graph dequantized (float32 weights and activations), as the speed and
 * accuracy baseline; the input stays uint8 and is dequantized by the graph.
 *
 * Layout as the float converter: NHWC input, one Transpose to NCHW, NHWC again only where an op
 * needs TFLite's layout (RESHAPE, SOFTMAX, outputs).
 */
import { OnnxGraph } from '../onnx-graph';
import type { OnnxTypeName } from '../onnx-proto';
import type { TfliteOutputSpec } from './convert';
import { NCHW_TO_NHWC, NHWC_TO_NCHW, samePads, transposeBytes } from './geometry';
import { activationRange, biasScaleGap, dequantize, dequantizeBias, QUANT_RANGE, quantDtypeOf, type QuantDtype } from './quant-params';
import {
  Activation,
  AddOptions,
  ArgMaxOptions,
  BuiltinOp,
  ConcatenationOptions,
  Conv2DOptions,
  DepthwiseConv2DOptions,
  Model,
  OptionsType,
  Padding,
  Pool2DOptions,
  ResizeBilinearOptions,
  SoftmaxOptions,
  TensorType,
  type Operator,
  type Quantization,
  type Tensor,
} from './schema';

/**
 * `qlinear`: the shipped integer graph (filters as int8); `qlinear-u8`: the same with the source's
 * uint8 filters kept (speed baseline of the int8 filters); `float`: dequantized (see above).
 */
export type QuantizedMode = 'qlinear' | 'qlinear-u8' | 'float';

export interface QuantizedConvertOptions {
  inputName: string;
  outputs: TfliteOutputSpec[];
  mode: QuantizedMode;
  /**
   * Free spatial size: the input's height and width become symbolic dims and every
   * RESIZE_BILINEAR takes its output size at run time from the shape of an earlier value that had
   * the op's fixed size in the source graph (Shape -> Concat -> Resize sizes), so the same graph
   * runs at other input sizes. Only sizes with the source's SAME padding and grid alignment are
   * meaningful (DeepLab: 16k + 1, as its 513).
   */
  freeSpatial?: boolean;
}

/** Scale and zero point of a graph input or output (per tensor). */
export interface TensorQuantization {
  dtype: QuantDtype;
  scale: number;
  zeroPoint: number;
}

export interface QuantizedConverted {
  graph: OnnxGraph;
  inputShape: number[];
  inputQuantization: TensorQuantization;
  outputShapes: number[][];
  /** ONNX element type of each output. */
  outputDtypes: OnnxTypeName[];
  /** Per output: its quantization (null for float or index outputs). */
  outputQuantization: (TensorQuantization | null)[];
  /** Builtin op name -> count, in the source model. */
  ops: Record<string, number>;
}

/** A runtime value: ONNX name, TFLite shape, stored channels-first, and its quantization. */
interface Value {
  name: string;
  shape: number[];
  nchw: boolean;
  /** null: float32 (mode float) or an index tensor. */
  q: { dtype: QuantDtype; params: Quantization } | null;
  dtype: OnnxTypeName;
}

const ACTIVATIONS: Record<number, 'none' | 'relu' | 'relu6' | 'relu-n1-to-1'> = {
  [Activation.NONE]: 'none',
  [Activation.RELU]: 'relu',
  [Activation.RELU6]: 'relu6',
  [Activation.RELU_N1_TO_1]: 'relu-n1-to-1',
};

const f32 = (v: number[]): Uint8Array => new Uint8Array(new Float32Array(v).buffer);
const i64 = (v: number[]): Uint8Array => new Uint8Array(new BigInt64Array(v.map(BigInt)).buffer);

export function convertQuantizedTflite(bytes: Uint8Array, opts: QuantizedConvertOptions): QuantizedConverted {
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
  const float = opts.mode === 'float';
  const g = new OnnxGraph();
  const values = new Map<number, Value>();
  const ops: Record<string, number> = {};

  // Scalars (scales, zero points, clip bounds) are shared: one initializer per distinct value.
  const scalars = new Map<string, string>();
  const scalar = (dtype: 'float' | QuantDtype, v: number): string => {
    const key = `${dtype}:${v}`;
    let name = scalars.get(key);
    if (!name) {
      const data = dtype === 'float' ? f32([v]) : dtype === 'uint8' ? Uint8Array.of(v) : new Uint8Array(Int8Array.of(v).buffer);
      name = g.initializer(dtype === 'float' ? 'scale' : 'q', dtype, [], data);
      scalars.set(key, name);
    }
    return name;
  };
  /** [scale, zero point] inputs of a per-tensor quantized value. */
  const qParams = (v: Value): [string, string] => {
    if (!v.q) throw new Error(`${v.name}: not quantized`);
    if (v.q.params.scales.length !== 1) throw new Error(`${v.name}: per-axis quantized activation`);
    return [scalar('float', v.q.params.scales[0]!), scalar(v.q.dtype, v.q.params.zeroPoints[0]!)];
  };

  const data = (i: number): Uint8Array | undefined => {
    const d = buffers[tensors[i]!.buffer()]?.data();
    return d && d.byteLength > 0 ? d.slice() : undefined;
  };
  const int32s = (i: number): number[] => {
    const d = data(i);
    if (!d || tensors[i]!.type() !== TensorType.INT32) throw new Error(`${tensors[i]!.name()}: expected an int32 constant`);
    return Array.from(new Int32Array(d.buffer));
  };
  /** The quantization of a TFLite tensor as it will exist in this graph (null in float mode). */
  const quantOf = (t: Tensor): Value['q'] => {
    const dtype = quantDtypeOf(t.type());
    const params = t.quantization();
    if (!dtype || !params) return null;
    return float ? null : { dtype, params };
  };
  const valueDtype = (t: Tensor): OnnxTypeName => {
    if (t.type() === TensorType.INT64) return 'int64';
    if (t.type() === TensorType.INT32) return 'int32';
    return float ? 'float' : (quantDtypeOf(t.type()) ?? 'float');
  };
  const result = (i: number, name: string, nchw: boolean): Value => {
    const t = tensors[i]!;
    const v: Value = { name, shape: t.shape(), nchw, q: quantOf(t), dtype: valueDtype(t) };
    values.set(i, v);
    return v;
  };
  const runtime = (i: number): Value => {
    const v = values.get(i);
    if (!v) throw new Error(`${tensors[i]!.name()}: not computed yet (or a constant used as a runtime input)`);
    return v;
  };
  const asNhwc = (v: Value): string =>
    v.nchw && v.shape.length === 4 ? g.node('Transpose', [v.name], { perm: NCHW_TO_NHWC })[0]! : v.name;
  const asNchw = (v: Value): string =>
    v.nchw || v.shape.length !== 4 ? v.name : g.node('Transpose', [v.name], { perm: NHWC_TO_NCHW })[0]!;

  const dq = (v: Value, x: string): string => g.node('DequantizeLinear', [x, ...qParams(v)])[0]!;
  const q = (out: Value, x: string): string => g.node('QuantizeLinear', [x, ...qParams(out)])[0]!;

  /** The fused activation: an integer Clip (qlinear) or the float function (float mode). */
  const activate = (x: string, act: number, outIdx: number, where: string): string => {
    const kind = ACTIVATIONS[act];
    if (!kind) throw new Error(`${where}: fused activation ${act}`);
    if (float) {
      if (kind === 'none') return x;
      if (kind === 'relu') return g.node('Relu', [x])[0]!;
      const [lo, hi] = kind === 'relu6' ? [0, 6] : [-1, 1];
      return g.node('Clip', [x, scalar('float', lo), scalar('float', hi)])[0]!;
    }
    const t = tensors[outIdx]!;
    const dtype = quantDtypeOf(t.type())!;
    const [lo, hi] = activationRange(kind, t.quantization()!, dtype);
    const [qmin, qmax] = QUANT_RANGE[dtype];
    if (lo <= qmin && hi >= qmax) return x;
    return g.node('Clip', [x, scalar(dtype, lo), scalar(dtype, hi)])[0]!;
  };

  // Graph input: the model's integer input (NHWC); float mode dequantizes it in the graph.
  const inputs = sg.inputs();
  if (inputs.length !== 1) throw new Error(`expected 1 input, got ${inputs.length}`);
  const inTensor = tensors[inputs[0]!]!;
  const inDtype = quantDtypeOf(inTensor.type());
  const inQ = inTensor.quantization();
  if (!inDtype || !inQ) throw new Error('input must be uint8 or int8 with quantization parameters');
  const inputShape = inTensor.shape();
  const free = opts.freeSpatial === true;
  if (free && inputShape.length !== 4) throw new Error(`free spatial size needs an NHWC input, got ${inputShape}`);
  g.inputs.push({ name: opts.inputName, dtype: inDtype, dims: free ? [inputShape[0]!, 'height', 'width', inputShape[3]!] : inputShape });
  if (float) {
    const x = g.node('Cast', [opts.inputName], { to: 1 })[0]!;
    const centred = g.node('Sub', [x, scalar('float', inQ.zeroPoints[0]!)])[0]!;
    result(inputs[0]!, g.node('Mul', [centred, scalar('float', inQ.scales[0]!)])[0]!, false);
  } else result(inputs[0]!, opts.inputName, false);

  for (const op of sg.operators()) {
    const name = codes[op.opcodeIndex()]!;
    ops[name] = (ops[name] ?? 0) + 1;
    const ins = op.inputs();
    const outs = op.outputs();
    if (outs.length !== 1) throw new Error(`${name}: ${outs.length} outputs`);
    const outIdx = outs[0]!;
    const out = tensors[outIdx]!;
    const outShape = out.shape();
    const where = `${name} -> ${out.name()}`;
    const outValue = (): Value => ({ name: '', shape: outShape, nchw: false, q: quantOf(out), dtype: valueDtype(out) });
    switch (name) {
      case 'CONV_2D':
      case 'DEPTHWISE_CONV_2D':
        convert2d(op, name, ins, outIdx, where);
        break;
      case 'ADD': {
        const [a, b] = [runtime(ins[0]!), runtime(ins[1]!)];
        if (a.shape.join() !== b.shape.join()) throw new Error(`${where}: broadcasting ADD not supported`);
        const act = op.options(AddOptions, OptionsType.AddOptions)?.activation() ?? 0;
        const both = a.nchw === b.nchw;
        const [x, y] = both ? [a.name, b.name] : [asNchw(a), asNchw(b)];
        const sum = float
          ? g.node('Add', [x, y])[0]!
          : g.domainNode('com.microsoft', 'QLinearAdd', [x, ...qParams(a), y, ...qParams(b), ...qParams(outValue())])[0]!;
        result(outIdx, activate(sum, act, outIdx, where), both ? a.nchw : true);
        break;
      }
      case 'AVERAGE_POOL_2D': {
        const x = runtime(ins[0]!);
        const o = op.options(Pool2DOptions, OptionsType.Pool2DOptions)!;
        const global = o.filterHeight() === x.shape[1] && o.filterWidth() === x.shape[2] && o.padding() === Padding.VALID;
        if (!global) throw new Error(`${where}: only a global average pool (filter = input size, VALID) is supported`);
        const pooled = float
          ? g.node('GlobalAveragePool', [asNchw(x)])[0]!
          : g.domainNode('com.microsoft', 'QLinearGlobalAveragePool', [asNchw(x), ...qParams(x), ...qParams(outValue())], {
              channels_last: 0,
            })[0]!;
        result(outIdx, activate(pooled, o.activation(), outIdx, where), true);
        break;
      }
      case 'RESHAPE': {
        const x = runtime(ins[0]!);
        const shape = g.initializer('shape', 'int64', [outShape.length], i64(outShape));
        result(outIdx, g.node('Reshape', [asNhwc(x), shape])[0]!, false);
        break;
      }
      case 'SOFTMAX': {
        const x = runtime(ins[0]!);
        const beta = op.options(SoftmaxOptions, OptionsType.SoftmaxOptions)?.beta() ?? 1;
        if (beta !== 1) throw new Error(`${where}: softmax beta ${beta}`);
        const logits = float ? asNhwc(x) : dq(x, asNhwc(x));
        const p = g.node('Softmax', [logits], { axis: -1 })[0]!;
        result(outIdx, float ? p : q(outValue(), p), false);
        break;
      }
      case 'RESIZE_BILINEAR': {
        const x = runtime(ins[0]!);
        const o = op.options(ResizeBilinearOptions, OptionsType.ResizeBilinearOptions);
        const [h, w] = int32s(ins[1]!) as [number, number];
        if (h !== outShape[1] || w !== outShape[2]) throw new Error(`${where}: size ${h}x${w} vs output ${outShape}`);
        const sameQ = float || x.q?.params.scales[0] === out.quantization()?.scales[0];
        if (!sameQ) throw new Error(`${where}: input and output quantization differ`);
        if (h === x.shape[1] && w === x.shape[2]) {
          values.set(outIdx, { ...x, shape: outShape }); // same size: identity in every coordinate mode
          break;
        }
        const mode = o?.alignCorners() ? 'align_corners' : o?.halfPixelCenters() ? 'half_pixel' : 'asymmetric';
        const sizes = free ? runtimeSizes(h, w, outShape[3]!, where) : g.initializer('sizes', 'int64', [4], i64([1, outShape[3]!, h, w]));
        const resize = (v: string) => g.node('Resize', [v, '', '', sizes], { mode: 'linear', coordinate_transformation_mode: mode })[0]!;
        if (float) {
          result(outIdx, resize(asNchw(x)), true);
          break;
        }
        // ORT's integer Resize truncates the interpolated value; TFLite rounds it. Interpolate the
        // integers in float, then round half up (floor(v + 0.5); values stay within the type's range).
        const interpolated = resize(g.node('Cast', [asNchw(x)], { to: 1 })[0]!);
        // Measured on DeepLab's 33->513 upsampling of cat_chelsea: 48 % of the values differ from
        // TFLite with ORT's integer Resize, 10.6 % with round-half-even, 9.6 % with half up, about
        // the share of 33x33 logits that already differ by one step (requantization rounding).
        const rounded = g.node('Floor', [g.node('Add', [interpolated, scalar('float', 0.5)])[0]!])[0]!;
        result(outIdx, g.node('Cast', [rounded], { to: x.q!.dtype === 'uint8' ? 2 : 3 })[0]!, true);
        break;
      }
      case 'QUANTIZE': {
        const x = runtime(ins[0]!);
        if (float) values.set(outIdx, { ...x, shape: outShape });
        else result(outIdx, q(outValue(), x.q ? dq(x, x.name) : x.name), x.nchw);
        break;
      }
      case 'CONCATENATION': {
        const o = op.options(ConcatenationOptions, OptionsType.ConcatenationOptions);
        const rank = outShape.length;
        const axis = ((o?.axis() ?? 0) + rank) % rank;
        const xs = ins.map((i) => runtime(i));
        const allNchw = rank === 4 && xs.every((v) => v.nchw);
        const onnxAxis = allNchw ? NHWC_TO_NCHW.indexOf(axis) : axis;
        const names = xs.map((v) => (allNchw ? v.name : asNhwc(v)));
        const outQ = outValue();
        const key = (v: Value) => `${v.q?.params.scales[0]}/${v.q?.params.zeroPoints[0]}`;
        let cat: string;
        if (float || xs.every((v) => key(v) === key(outQ))) cat = g.node('Concat', names, { axis: onnxAxis })[0]!;
        else
          cat = q(
            outQ,
            g.node(
              'Concat',
              xs.map((v, k) => dq(v, names[k]!)),
              { axis: onnxAxis },
            )[0]!,
          );
        result(outIdx, activate(cat, o?.activation() ?? 0, outIdx, where), allNchw);
        break;
      }
      case 'ARG_MAX': {
        const x = runtime(ins[0]!);
        const [axisRaw] = int32s(ins[1]!);
        const rank = x.shape.length;
        const axis = (axisRaw! + rank) % rank;
        const onnxAxis = x.nchw && rank === 4 ? NHWC_TO_NCHW.indexOf(axis) : axis;
        // First maximum on ties, as TFLite's ArgMinMax (strict comparison).
        let y = g.node('ArgMax', [x.name], { axis: onnxAxis, keepdims: 0, select_last_index: 0 })[0]!;
        const outType = op.options(ArgMaxOptions, OptionsType.ArgMaxOptions)?.outputType() ?? TensorType.INT64;
        if (outType === TensorType.INT32) y = g.node('Cast', [y], { to: 6 })[0]!;
        // The reduced tensor keeps TFLite's order when the channel axis is the one removed.
        const keepsOrder = !x.nchw || rank !== 4 || axis === 3;
        if (!keepsOrder) throw new Error(`${where}: ArgMax over a spatial axis of an NCHW tensor`);
        result(outIdx, y, false);
        break;
      }
      default:
        throw new Error(`${where}: unsupported op in a quantized graph`);
    }
  }

  function convert2d(op: Operator, name: string, ins: number[], outIdx: number, where: string): void {
    const x = runtime(ins[0]!);
    const wT = tensors[ins[1]!]!;
    const wBytes = data(ins[1]!);
    const wDtype = quantDtypeOf(wT.type());
    const wQ = wT.quantization();
    if (!wBytes || !wDtype || !wQ) throw new Error(`${where}: filter must be a quantized constant`);
    const hasBias = ins[2] !== undefined && ins[2] >= 0;
    const bT = hasBias ? tensors[ins[2]!]! : undefined;
    const bBytes = hasBias ? data(ins[2]!) : undefined;
    if (hasBias && (!bBytes || bT!.type() !== TensorType.INT32)) throw new Error(`${where}: bias must be an int32 constant`);
    const depthwise = name === 'DEPTHWISE_CONV_2D';
    const o = depthwise
      ? op.options(DepthwiseConv2DOptions, OptionsType.DepthwiseConv2DOptions)
      : op.options(Conv2DOptions, OptionsType.Conv2DOptions);
    if (!o) throw new Error(`${where}: missing options`);
    const [, kh, kw] = wT.shape() as [number, number, number, number];
    const cin = x.shape[3]!;
    // CONV_2D filter [O, kh, kw, I] -> OIHW; DEPTHWISE [1, kh, kw, C*M] -> [C*M, 1, kh, kw], group C.
    // The per-axis dimension moves to 0 in both cases (O, resp. C*M).
    const perm = depthwise ? [3, 0, 1, 2] : [0, 3, 1, 2];
    const filter = transposeBytes(wBytes, wT.shape(), perm, 1);
    const filterQ: Quantization = { ...wQ, axis: perm.indexOf(wQ.axis) };
    const strides = [o.strideH(), o.strideW()];
    const dilations = [o.dilationH(), o.dilationW()];
    const pads = o.padding() === Padding.VALID ? [0, 0, 0, 0] : samePads([x.shape[1]!, x.shape[2]!], [kh, kw], strides, dilations);
    const attrs = { kernel_shape: [kh, kw], strides, dilations, pads, group: depthwise ? cin : 1 };
    let y: string;
    if (float) {
      const wf = g.initializer(
        'filter',
        'float',
        filter.shape,
        new Uint8Array(dequantize(filter.bytes, wDtype, filter.shape, filterQ).buffer),
      );
      const convIn = [asNchw(x), wf];
      if (bT && bBytes) {
        const scales = wQ.scales.map((s) => s * inputScale(ins[0]!));
        convIn.push(g.initializer('bias', 'float', bT.shape(), new Uint8Array(dequantizeBias(bBytes, scales).buffer)));
      }
      y = g.node('Conv', convIn, attrs)[0]!;
    } else {
      // uint8 filters become int8 by shifting values and zero points by 128: (w − zp)·scale is
      // unchanged, so the integer result is identical, and ORT's u8×s8 kernels (VNNI's vpdpbusd)
      // run where u8×u8 takes a slower path.
      const keepU8 = opts.mode === 'qlinear-u8' && wDtype === 'uint8';
      const signed = keepU8 ? { bytes: filter.bytes, zeroPoints: [...wQ.zeroPoints] } : asSignedFilter(filter.bytes, wQ.zeroPoints, wDtype);
      const fDtype = keepU8 ? 'uint8' : 'int8';
      const zpBytes = keepU8 ? Uint8Array.from(signed.zeroPoints) : new Uint8Array(Int8Array.from(signed.zeroPoints).buffer);
      const w = g.initializer('filter', fDtype, filter.shape, signed.bytes);
      const perAxis = wQ.scales.length > 1;
      const wScale = perAxis ? g.initializer('w_scale', 'float', [wQ.scales.length], f32(wQ.scales)) : scalar('float', wQ.scales[0]!);
      // The filter's zero point is its own initializer, never a shared scalar: on x86 CPUs without
      // VNNI onnxruntime rewrites each s8 filter and its zero point to u8 at load
      // (EXACT_INTEGER_KERNELS), and a zero point shared by several convolutions fails that
      // rewrite ("Attempt to replace the existing tensor").
      const wZp = g.initializer('w_zp', fDtype, perAxis ? [signed.zeroPoints.length] : [], zpBytes);
      const convIn = [asNchw(x), ...qParams(x), w, wScale, wZp, ...qParams({ ...x, q: quantOf(tensors[outIdx]!) })];
      if (bT && bBytes) {
        const gap = biasScaleGap(bT.quantization()!, x.q!.params, wQ);
        if (gap > 1e-4) throw new Error(`${where}: bias scale differs from input*filter scale by ${gap}`);
        convIn.push(g.initializer('bias', 'int32', bT.shape(), bBytes));
      }
      y = g.node('QLinearConv', convIn, attrs)[0]!;
    }
    result(outIdx, activate(y, o.activation(), outIdx, where), true);
  }

  /**
   * Resize `sizes` [1, C, H, W] of a free-spatial graph: H and W read at run time from the first
   * value (in graph order, the input first) whose source shape is NHWC with spatial size h x w.
   */
  function runtimeSizes(h: number, w: number, c: number, where: string): string {
    const ref = [...values.values()].find((v) => v.shape.length === 4 && v.shape[1] === h && v.shape[2] === w);
    if (!ref) throw new Error(`${where}: no earlier value of size ${h}x${w} to take the run-time size from`);
    const at = ref.nchw ? 2 : 1;
    const hw = g.node('Shape', [ref.name], { start: at, end: at + 2 })[0]!;
    return g.node('Concat', [g.initializer('batch_channels', 'int64', [2], i64([1, c])), hw], { axis: 0 })[0]!;
  }

  function inputScale(i: number): number {
    return tensors[i]!.quantization()!.scales[0]!;
  }

  const outputShapes: number[][] = [];
  const outputDtypes: OnnxTypeName[] = [];
  const outputQuantization: (TensorQuantization | null)[] = [];
  const byName = new Map(tensors.map((t, i) => [t.name(), i]));
  for (const spec of opts.outputs) {
    const i = byName.get(spec.tensor);
    if (i === undefined) throw new Error(`no tensor ${spec.tensor}`);
    const v = runtime(i);
    g.node('Identity', [asNhwc(v)], {}, 1, [spec.name]);
    g.outputs.push({ name: spec.name, dtype: v.dtype, dims: free ? freeDims(v.shape, spec.name) : v.shape, doc: spec.doc });
    outputShapes.push(v.shape);
    outputDtypes.push(v.dtype);
    outputQuantization.push(v.q ? { dtype: v.q.dtype, scale: v.q.params.scales[0]!, zeroPoint: v.q.params.zeroPoints[0]! } : null);
  }
  /** Output dims of a free-spatial graph: the input's size by its symbolic names, other spatial sizes named per output. */
  function freeDims(shape: number[], output: string): (number | string)[] {
    if (shape.length < 3) return shape;
    return shape.map((d, i) => {
      if (i === 1) return d === inputShape[1] ? 'height' : `${output}_height`;
      if (i === 2) return d === inputShape[2] ? 'width' : `${output}_width`;
      return d;
    });
  }
  g.prune();
  return {
    graph: g,
    inputShape,
    inputQuantization: { dtype: inDtype, scale: inQ.scales[0]!, zeroPoint: inQ.zeroPoints[0]! },
    outputShapes,
    outputDtypes,
    outputQuantization,
    ops,
  };
}

/** A filter's bytes and zero points as int8: uint8 values and zero points shifted by −128 (exact). */
export function asSignedFilter(
  bytes: Uint8Array,
  zeroPoints: readonly number[],
  dtype: 'uint8' | 'int8',
): { bytes: Uint8Array; zeroPoints: number[] } {
  if (dtype === 'int8') return { bytes, zeroPoints: [...zeroPoints] };
  const out = new Uint8Array(bytes.length);
  // uint8 v → int8 v − 128: the same bit pattern with the top bit flipped.
  for (let i = 0; i < bytes.length; i++) out[i] = bytes[i]! ^ 0x80;
  return { bytes: out, zeroPoints: zeroPoints.map((z) => z - 128) };
}
