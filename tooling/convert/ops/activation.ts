/** Activations, standalone or fused into conv/matmul (TF `fused_ops` after BiasAdd). */
import { attrs, type Ctx, type Value } from '../context';
import type { TfNode } from '../tfjs-source';

/**
 * Applies `op` to ONNX tensor `x` (stored with `perm`, TF rank `rank`). `alpha` is the PReLU
 * slope tensor when present; LeakyRelu's slope comes from the node attribute.
 */
export function activate(ctx: Ctx, op: string, x: string, perm: number[], rank: number, node: TfNode, alpha?: Value): string {
  switch (op) {
    case 'Relu':
      return ctx.g.node('Relu', [x])[0]!;
    case 'Relu6':
      return ctx.g.node('Clip', [x, ctx.floatScalar(0), ctx.floatScalar(6)])[0]!;
    case 'Elu':
      return ctx.g.node('Elu', [x], { alpha: { float: 1 } })[0]!;
    case 'Sigmoid':
      return ctx.g.node('Sigmoid', [x])[0]!;
    case 'Tanh':
      return ctx.g.node('Tanh', [x])[0]!;
    case 'LeakyRelu': {
      const a = node.attr?.leakyrelu_alpha ? attrs.float(node, 'leakyrelu_alpha', 0.2) : attrs.float(node, 'alpha', 0.2);
      return ctx.g.node('LeakyRelu', [x], { alpha: { float: a } })[0]!;
    }
    case 'Prelu': {
      if (!alpha) throw new Error(`${node.name}: Prelu without alpha`);
      const slope = alpha.const ? ctx.broadcastConst(alpha.const, rank, perm) : ctx.as(alpha, perm);
      return ctx.g.node('PRelu', [x, slope])[0]!;
    }
    default:
      throw new Error(`${node.name}: unsupported activation ${op}`);
  }
}

export const unaryOps: Record<string, string> = {
  Relu: 'Relu',
  Relu6: 'Relu6',
  Elu: 'Elu',
  Sigmoid: 'Sigmoid',
  Tanh: 'Tanh',
  LeakyRelu: 'LeakyRelu',
};

const simpleUnary: Record<string, string> = {
  Exp: 'Exp',
  Neg: 'Neg',
  Abs: 'Abs',
  Sqrt: 'Sqrt',
  Log: 'Log',
  Floor: 'Floor',
  Reciprocal: 'Reciprocal',
  Softplus: 'Softplus',
};

export function convertUnary(ctx: Ctx, node: TfNode, x: Value): Value {
  const rank = x.shape.length;
  if (node.op in unaryOps) return { ...x, name: activate(ctx, node.op, x.name, x.perm, rank, node), const: undefined };
  if (node.op === 'Rsqrt') {
    const s = ctx.g.node('Sqrt', [x.name])[0]!;
    return { ...x, name: ctx.g.node('Reciprocal', [s])[0]! };
  }
  if (node.op === 'Square') return { ...x, name: ctx.g.node('Mul', [x.name, x.name])[0]! };
  const op = simpleUnary[node.op];
  if (!op) throw new Error(`${node.name}: unsupported op ${node.op}`);
  return { ...x, name: ctx.g.node(op, [x.name])[0]! };
}

export const isUnary = (op: string): boolean => op in unaryOps || op in simpleUnary || op === 'Rsqrt' || op === 'Square';
