/** Mean/Max/Min/Sum/Prod over constant axes; axes remapped through the layout perm. */
import { attrs, type Ctx, type Value } from '../context';
import { dropAxes, onnxAxis } from '../layout';
import type { TfNode } from '../tfjs-source';

const reduceOps: Record<string, string> = { Mean: 'ReduceMean', Max: 'ReduceMax', Min: 'ReduceMin', Sum: 'ReduceSum', Prod: 'ReduceProd' };

export const isReduce = (op: string): boolean => op in reduceOps;

export function convertReduce(ctx: Ctx, node: TfNode, x: Value, axesV: Value): Value {
  if (!axesV.const) throw new Error(`${node.name}: runtime axes`);
  const rank = x.shape.length;
  const tfAxes = [...axesV.const.values].map((a) => (a < 0 ? a + rank : a));
  const axes = tfAxes.map((a) => onnxAxis(x.perm, a)).sort((p, q) => p - q);
  const keep = attrs.bool(node, 'keep_dims') ? 1 : 0;
  const op = reduceOps[node.op]!;
  // Opset 17: ReduceSum takes axes as an input, the others as an attribute.
  const y =
    op === 'ReduceSum'
      ? ctx.g.node(op, [x.name, ctx.int64(axes)], { keepdims: keep })[0]!
      : ctx.g.node(op, [x.name], { axes, keepdims: keep })[0]!;
  const perm = keep ? x.perm : dropAxes(x.perm, tfAxes);
  return ctx.runtime(y, perm, ctx.shapeOf(`${node.name}:0`));
}
