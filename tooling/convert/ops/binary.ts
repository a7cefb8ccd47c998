/**
 * Broadcasting binary ops. A runtime operand keeps its layout; a constant operand is reshaped to
 * full rank (numpy rules) and permuted to match. Two runtime operands in different layouts (or
 * ranks) fall back to TF layout.
 */
import type { Ctx, Value } from '../context';
import { identity, samePerm } from '../layout';
import type { TfNode } from '../tfjs-source';

const binaryOps: Record<string, string> = {
  Add: 'Add',
  AddV2: 'Add',
  BiasAdd: 'Add',
  Sub: 'Sub',
  Mul: 'Mul',
  RealDiv: 'Div',
  Div: 'Div',
  Maximum: 'Max',
  Minimum: 'Min',
  Pow: 'Pow',
  Equal: 'Equal',
  Greater: 'Greater',
  Less: 'Less',
};

export const isBinary = (op: string): boolean => op in binaryOps;

export function convertBinary(ctx: Ctx, node: TfNode, a: Value, b: Value, outShape: number[]): Value {
  const op = binaryOps[node.op]!;
  const rank = outShape.length;
  let perm: number[];
  let names: [string, string];
  if (node.op === 'BiasAdd' && b.const && a.shape.length === rank) {
    perm = a.perm;
    names = [a.name, ctx.broadcastConst(b.const, rank, perm)];
  } else if (!a.const && !b.const) {
    if (a.shape.length === rank && b.shape.length === rank && samePerm(a.perm, b.perm)) {
      perm = a.perm;
      names = [a.name, b.name];
    } else {
      perm = identity(rank);
      names = [ctx.tf(a), ctx.tf(b)];
    }
  } else {
    const [run, cst, runFirst] = a.const ? [b, a, false] : [a, b, true];
    perm = run.shape.length === rank && cst.const!.shape.length <= rank ? run.perm : identity(rank);
    const rn = ctx.as(run, perm);
    const cn = ctx.broadcastConst(cst.const!, rank, perm);
    names = runFirst ? [rn, cn] : [cn, rn];
  }
  const y = ctx.g.node(op, names)[0]!;
  const dtype = ['Equal', 'Greater', 'Less'].includes(op) ? 'bool' : a.dtype;
  return ctx.runtime(y, perm, outShape, dtype);
}
