/**
 * Layout-sensitive and structural ops. Reshape-like ops need the TF layout (values would be
 * scrambled otherwise); Transpose only composes the perm; Concat/Pad/Split/Softmax remap axes.
 */
import { attrs, type Ctx, type Value } from '../context';
import type { AttrValue } from '../onnx-graph';
import { channelsFirst, identity, onnxAxis, samePerm } from '../layout';
import type { TfNode } from '../tfjs-source';

/**
 * Reshape, Squeeze, ExpandDims: a Reshape to the traced static shape, in TF layout. With a dynamic
 * batch the target's batch entry is -1 (ONNX infers it), so batch 1 is not baked into the graph.
 */
export function convertReshape(ctx: Ctx, node: TfNode, x: Value): Value {
  const shape = ctx.shapeOf(`${node.name}:0`);
  ctx.batchGuard(shape[0] === 1 && x.shape[0] === 1, node, `reshape ${x.shape.join('x')} -> ${shape.join('x')}`);
  const target = ctx.dynamicBatch ? [-1, ...shape.slice(1)] : shape;
  const y = ctx.g.node('Reshape', [ctx.tf(x), ctx.int64(target)])[0]!;
  return ctx.runtime(y, identity(shape.length), shape, x.dtype);
}

/** No node: the output is the same ONNX tensor viewed through a composed perm. */
export function convertTranspose(ctx: Ctx, node: TfNode, x: Value, permV: Value, outShape: number[]): Value {
  if (!permV.const) throw new Error(`${node.name}: runtime perm`);
  const p = [...permV.const.values];
  ctx.batchGuard(p[0] === 0, node, 'a transpose that moves the batch axis');
  const inv = p.map((_, i) => p.indexOf(i));
  return { ...x, perm: x.perm.map((a) => inv[a]!), shape: outShape };
}

export function convertPad(ctx: Ctx, node: TfNode, x: Value, padsV: Value, valueV?: Value): Value {
  if (!padsV.const) throw new Error(`${node.name}: runtime paddings`);
  const p = [...padsV.const.values];
  const begins = x.perm.map((a) => p[2 * a]!);
  const ends = x.perm.map((a) => p[2 * a + 1]!);
  const cv = valueV?.const ? ctx.floatScalar(valueV.const.values[0]!) : ctx.floatScalar(0);
  const y = ctx.g.node('Pad', [x.name, ctx.int64([...begins, ...ends]), cv], { mode: 'constant' })[0]!;
  return ctx.runtime(y, x.perm, ctx.shapeOf(`${node.name}:0`));
}

export function convertConcat(ctx: Ctx, node: TfNode, inputs: Value[]): Value {
  const axisV = inputs[inputs.length - 1]!;
  const parts = inputs.slice(0, -1);
  const outShape = ctx.shapeOf(`${node.name}:0`);
  const rank = outShape.length;
  const first = parts.find((v) => !v.const && v.shape.length === rank);
  const perm = first && parts.every((v) => v.const || samePerm(v.perm, first.perm)) ? first.perm : identity(rank);
  const tfAxis = Number(axisV.const!.values[0]);
  ctx.batchGuard((tfAxis + rank) % rank !== 0 && parts.every((v) => !v.const), node, 'a concat on the batch axis or with a constant');
  const axis = onnxAxis(perm, tfAxis);
  const y = ctx.g.node(
    'Concat',
    parts.map((v) => ctx.as(v, perm)),
    { axis },
  )[0]!;
  return ctx.runtime(y, perm, outShape, parts[0]!.dtype);
}

export function convertSplit(ctx: Ctx, node: TfNode, inputs: Value[], outKeys: string[]): Value[] {
  // SplitV(x, size_splits, axis); Split(axis, x) with num_split.
  const [x, sizes, axisV] = node.op === 'SplitV' ? [inputs[0]!, inputs[1]!, inputs[2]!] : [inputs[1]!, undefined, inputs[0]!];
  const rank = x.shape.length;
  const tfAxis = Number(axisV.const!.values[0]);
  const a = tfAxis < 0 ? tfAxis + rank : tfAxis;
  ctx.batchGuard(a !== 0, node, 'a split of the batch axis');
  const n = attrs.int(node, 'num_split', 1);
  let sizeList = sizes?.const ? [...sizes.const.values] : new Array<number>(n).fill(x.shape[a]! / n);
  const known = sizeList.filter((s) => s >= 0).reduce((s, v) => s + v, 0);
  sizeList = sizeList.map((s) => (s < 0 ? x.shape[a]! - known : s));
  const outs = ctx.g.node('Split', [x.name, ctx.int64(sizeList)], { axis: onnxAxis(x.perm, a) }, sizeList.length);
  return outs.map((name, i) => ctx.runtime(name, x.perm, ctx.shapeOf(outKeys[i] ?? `${node.name}:${i}`)));
}

export function convertSoftmax(ctx: Ctx, node: TfNode, x: Value): Value {
  const axis = onnxAxis(x.perm, x.shape.length - 1);
  const y = ctx.g.node('Softmax', [x.name], { axis })[0]!;
  return ctx.runtime(y, x.perm, x.shape);
}

/** TF DepthToSpace (NHWC) has ONNX DCR ordering on NCHW. */
export function convertDepthToSpace(ctx: Ctx, node: TfNode, x: Value): Value {
  const nchw = channelsFirst(4);
  const y = ctx.g.node('DepthToSpace', [ctx.as(x, nchw)], { blocksize: attrs.int(node, 'block_size'), mode: 'DCR' })[0]!;
  return ctx.runtime(y, nchw, ctx.shapeOf(`${node.name}:0`));
}

/**
 * Resize: align_corners -> align_corners, half_pixel_centers -> half_pixel, else asymmetric;
 * nearest rounds like TF (floor for legacy, round_prefer_ceil otherwise). Sizes in ONNX order.
 */
export function convertResize(ctx: Ctx, node: TfNode, x: Value): Value {
  // The sizes input names the batch too; a dynamic batch would need them computed from Shape.
  ctx.batchGuard(false, node, 'resize (static sizes)');
  const outShape = ctx.shapeOf(`${node.name}:0`);
  const align = attrs.bool(node, 'align_corners');
  const half = attrs.bool(node, 'half_pixel_centers');
  const ct = align ? 'align_corners' : half ? 'half_pixel' : 'asymmetric';
  const nearest = node.op === 'ResizeNearestNeighbor';
  const extra: Record<string, AttrValue> = nearest
    ? { mode: 'nearest', nearest_mode: align || half ? 'round_prefer_ceil' : 'floor' }
    : { mode: 'linear' };
  const sizes = x.perm.map((a) => outShape[a]!);
  const y = ctx.g.node('Resize', [x.name, '', '', ctx.int64(sizes)], { coordinate_transformation_mode: ct, ...extra })[0]!;
  return ctx.runtime(y, x.perm, outShape);
}

/** Cast at runtime (int32 stays int32 in ONNX). */
export function convertCast(ctx: Ctx, node: TfNode, x: Value): Value {
  const dst = node.attr?.DstT?.type;
  const [to, dtype] = dst === 'DT_INT32' ? [6, 'int32' as const] : dst === 'DT_BOOL' ? [9, 'bool' as const] : [1, 'float32' as const];
  const y = ctx.g.node('Cast', [x.name], { to })[0]!;
  return ctx.runtime(y, x.perm, x.shape, dtype);
}
