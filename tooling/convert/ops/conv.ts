/**
 * Conv2D / DepthwiseConv2dNative and their fused forms (BiasAdd + activation).
 * Filters: Conv HWIO -> OIHW; depthwise [kh,kw,C,M] -> [C*M,1,kh,kw] with group = C.
 * Activations enter and leave in NCHW (perm [0,3,1,2]).
 */
import { attrs, type Ctx, type Value } from '../context';
import { channelsFirst } from '../layout';
import { reshapeConst, transposeConst } from '../tensor-data';
import type { TfNode } from '../tfjs-source';
import { activate } from './activation';
import { pads2d } from './padding';

export function convertConv(ctx: Ctx, node: TfNode, inputs: Value[]): Value {
  const [x, w, bias, extra] = inputs as [Value, Value, Value | undefined, Value | undefined];
  if (!w.const) throw new Error(`${node.name}: runtime filters are not supported`);
  if (attrs.str(node, 'data_format', 'NHWC') !== 'NHWC') throw new Error(`${node.name}: data_format`);
  const depthwise = node.op.includes('Depthwise');
  const [kh, kw, cin, cm] = w.const.shape as [number, number, number, number];
  const filter = depthwise
    ? reshapeConst(transposeConst(w.const, [2, 3, 0, 1]), [cin * cm, 1, kh, kw])
    : transposeConst(w.const, [3, 2, 0, 1]);
  const s = attrs.ints(node, 'strides');
  const d = attrs.ints(node, 'dilations');
  const strides: [number, number] = [s[1] ?? 1, s[2] ?? 1];
  const dil: [number, number] = [d[1] ?? 1, d[2] ?? 1];
  const pads = pads2d(node, [x.shape[1]!, x.shape[2]!], [kh, kw], strides, dil);
  const nchw = channelsFirst(4);
  const fused = attrs.strs(node, 'fused_ops');
  const convInputs = [ctx.as(x, nchw), ctx.constant(filter)];
  let rest = fused;
  if (fused[0] === 'BiasAdd') {
    if (!bias?.const) throw new Error(`${node.name}: runtime bias`);
    convInputs.push(ctx.constant(bias.const));
    rest = fused.slice(1);
  } else if (fused.length) throw new Error(`${node.name}: fused ${fused.join('+')}`);
  let y = ctx.g.node('Conv', convInputs, {
    kernel_shape: [kh, kw],
    strides,
    dilations: dil,
    pads,
    group: depthwise ? cin : 1,
  })[0]!;
  for (const op of rest) y = activate(ctx, op, y, nchw, 4, node, extra);
  return ctx.runtime(y, nchw, ctx.shapeOf(`${node.name}:0`));
}
