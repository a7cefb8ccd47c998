/**
 * A wider quantisation plan than qdq.ts's `planQuantisation` (which the shipped int8 models use
 * unchanged): besides convolutions and Adds it quantises the ops onnxruntime also runs as int8
 * kernels in a QDQ graph — Mul of two activations (QLinearMul: squeeze-and-excite gating),
 * Concat (QLinearConcat), GlobalAveragePool (QLinearGlobalAveragePool) and Resize (uint8 Resize,
 * input and output share one scale: `tied`) — so a graph like CenterNet's decoder stays in uint8
 * between convolutions. Options keep chosen convolutions or tensors float (the measured
 * sensitive ones) and force a head tensor (a detector's logits) to be quantised.
 * Measurement only so far (centernet-explore.ts; docs/models.md "CenterNet int8").
 */
import { OnnxType } from '../onnx-proto';
import { GraphIndex, type OnnxModel, type OnnxNode } from './onnx-model';
import { headTensors, type QuantPlan } from './qdq';

export interface WidePlanOptions {
  /** Convolutions that stay float (their weights too). */
  floatConv?: (conv: OnnxNode, g: GraphIndex) => boolean;
  /** Tensors that are never quantised; a convolution whose input is among them stays float. */
  keepFloat?: ReadonlySet<string>;
  /** Tensors quantised although they reach an output only through head ops (Sigmoid, layout ops). */
  force?: ReadonlySet<string>;
}

export interface WidePlan extends QuantPlan {
  /** Pairs [input, output] that must get the same scale and zero point (Resize on uint8). */
  tied: [string, string][];
}

/** ReLU/Clip after an op: quantising its output makes them redundant (onnxruntime drops them). */
const REMOVABLE = new Set(['Relu', 'Clip']);

export function planWide(m: OnnxModel, o: WidePlanOptions = {}): WidePlan {
  const g = new GraphIndex(m);
  const heads = headTensors(g);
  const acts = new Set<string>();
  const tied: [string, string][] = [];
  const convs: OnnxNode[] = [];
  const isActivation = (t: string): boolean => !!t && !g.inits.has(t) && !g.constFloats(t);
  const outputOf = (n: OnnxNode): string => {
    const next = g.soleConsumer(n.output[0]!);
    return next && REMOVABLE.has(next.opType) ? next.output[0]! : n.output[0]!;
  };
  const add = (t: string): void => {
    if ((!heads.has(t) || o.force?.has(t)) && !o.keepFloat?.has(t)) acts.add(t);
  };
  for (const n of m.graph.node) {
    switch (n.opType) {
      case 'Conv':
        if (g.inits.get(n.input[1]!)?.dataType !== OnnxType.float || o.floatConv?.(n, g) || o.keepFloat?.has(n.input[0]!)) break;
        convs.push(n);
        add(n.input[0]!);
        add(outputOf(n));
        break;
      case 'Add':
      case 'Mul':
        if (!n.input.every(isActivation)) break;
        n.input.forEach(add);
        add(outputOf(n));
        break;
      case 'Concat':
        n.input.forEach(add);
        add(outputOf(n));
        break;
      case 'GlobalAveragePool':
        add(n.input[0]!);
        add(n.output[0]!);
        break;
      case 'Resize':
        if (o.keepFloat?.has(n.input[0]!) || o.keepFloat?.has(n.output[0]!)) break;
        add(n.input[0]!);
        add(n.output[0]!);
        tied.push([n.input[0]!, n.output[0]!]);
        break;
    }
  }
  for (const t of o.force ?? []) acts.add(t);
  // A convolution runs as int8 only when its input is quantised.
  return { activations: [...acts], convs: convs.filter((c) => acts.has(c.input[0]!)), tied };
}

/**
 * The convolutions of squeeze-and-excite branches: fed by a GlobalAveragePool directly or through
 * one convolution and its activation. They work on one value per channel (no speed to gain) and
 * gate whole feature maps, so an 8-bit step there shifts every later layer (measured: the most
 * sensitive tensor of CenterNet).
 */
export function squeezeExciteConvs(m: OnnxModel): Set<OnnxNode> {
  const g = new GraphIndex(m);
  const fromPool = (t: string, depth: number): boolean => {
    const p = g.producer.get(t);
    if (!p) return false;
    if (p.opType === 'GlobalAveragePool') return true;
    return depth > 0 && (p.opType === 'Conv' || REMOVABLE.has(p.opType)) && fromPool(p.input[0]!, depth - 1);
  };
  return new Set(m.graph.node.filter((n) => n.opType === 'Conv' && fromPool(n.input[0]!, 2)));
}
