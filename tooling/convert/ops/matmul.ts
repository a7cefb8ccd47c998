/** MatMul / _FusedMatMul (BiasAdd + activation) on 2-D TF-layout tensors -> Gemm. */
import { attrs, type Ctx, type Value } from '../context';
import { identity } from '../layout';
import type { TfNode } from '../tfjs-source';
import { activate } from './activation';

export function convertMatMul(ctx: Ctx, node: TfNode, inputs: Value[]): Value {
  const [a, b, bias, extra] = inputs as [Value, Value, Value | undefined, Value | undefined];
  const outShape = ctx.shapeOf(`${node.name}:0`);
  const ta = attrs.bool(node, 'transpose_a') ? 1 : 0;
  const tb = attrs.bool(node, 'transpose_b') ? 1 : 0;
  const fused = attrs.strs(node, 'fused_ops');
  const ins = [ctx.tf(a), ctx.tf(b)];
  let rest = fused;
  if (fused[0] === 'BiasAdd') {
    ins.push(bias!.const ? ctx.constant(bias!.const) : ctx.tf(bias!));
    rest = fused.slice(1);
  }
  if (a.shape.length !== 2) throw new Error(`${node.name}: MatMul rank ${a.shape.length}`);
  let y = ctx.g.node('Gemm', ins, { transA: ta, transB: tb })[0]!;
  for (const op of rest) y = activate(ctx, op, y, identity(2), 2, node, extra);
  return ctx.runtime(y, identity(2), outShape);
}
