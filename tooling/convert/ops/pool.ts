/** MaxPool / AvgPool (NHWC in TF, NCHW in ONNX). AvgPool excludes padding like TF. */
import { attrs, type Ctx, type Value } from '../context';
import type { AttrValue } from '../onnx-graph';
import { channelsFirst } from '../layout';
import type { TfNode } from '../tfjs-source';
import { pads2d } from './padding';

export function convertPool(ctx: Ctx, node: TfNode, x: Value): Value {
  const k = attrs.ints(node, 'ksize');
  const s = attrs.ints(node, 'strides');
  const kernel: [number, number] = [k[1]!, k[2]!];
  const strides: [number, number] = [s[1]!, s[2]!];
  const pads = pads2d(node, [x.shape[1]!, x.shape[2]!], kernel, strides, [1, 1]);
  const nchw = channelsFirst(4);
  const op = node.op === 'MaxPool' ? 'MaxPool' : 'AveragePool';
  const extra: Record<string, AttrValue> = op === 'AveragePool' ? { count_include_pad: 0 } : {};
  const y = ctx.g.node(op, [ctx.as(x, nchw)], { kernel_shape: kernel, strides, pads, ...extra })[0]!;
  return ctx.runtime(y, nchw, ctx.shapeOf(`${node.name}:0`));
}
