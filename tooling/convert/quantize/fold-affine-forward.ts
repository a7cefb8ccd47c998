/**
 * Folds a per-channel affine that sits *after* an activation (batch norm placed after ReLU, as in
 * gear: Conv → Relu → Mul(s) → Add(b) → MaxPool → Conv) into the next convolution, so the
 * quantised graph runs QLinearConv → MaxPool → QLinearConv in uint8 instead of dequantising for a
 * float Mul and Add on every feature map and quantising again.
 *
 * Exact up to float rounding when:
 * - the next convolution has no padding (a zero pad of the affine's output is not a zero pad of
 *   its input), group 1, float weights;
 * - any MaxPool in between sees only positive scales (max(s·x + b) = s·max(x) + b needs s > 0).
 * Then Conv(s·x + b) = Conv'(x) with W'[o,i,·] = W[o,i,·]·s[i] and bias'[o] = bias[o] + Σ_i b[i]·Σ W[o,i,·].
 */
import { floatInit, GraphIndex, perChannel, prune, type OnnxModel, type OnnxNode } from './onnx-model';

const attr = (n: OnnxNode, name: string) => n.attribute.find((a) => a.name === name);

/** A convolution the affine can move into: no padding, one group, float weights of [O, C, kh, kw]. */
function unpaddedConv(n: OnnxNode | undefined, g: GraphIndex): n is OnnxNode {
  if (n?.opType !== 'Conv') return false;
  const pads = attr(n, 'pads')?.ints ?? [];
  const autoPad = attr(n, 'auto_pad')?.s;
  const autoPadName = autoPad ? Buffer.from(autoPad).toString() : 'NOTSET';
  const group = Number(attr(n, 'group')?.i ?? 1);
  const w = g.inits.get(n.input[1]!);
  return pads.every((p) => Number(p) === 0) && (autoPadName === 'NOTSET' || autoPadName === 'VALID') && group === 1 && w?.dims.length === 4;
}

/** Folds every such affine; returns how many were folded. Run after `materialiseWeights`. */
export function foldAffineIntoNextConv(m: OnnxModel, fresh: (prefix: string) => string): number {
  let folded = 0;
  for (;;) {
    const g = new GraphIndex(m);
    let done = false;
    for (const mul of m.graph.node) {
      if (mul.opType !== 'Mul' || mul.input.length !== 2) continue;
      const xIdx = g.constFloats(mul.input[1]!) ? 0 : g.constFloats(mul.input[0]!) ? 1 : -1;
      if (xIdx < 0) continue;
      const add = g.soleConsumer(mul.output[0]!);
      if (add?.opType !== 'Add' || add.input.length !== 2) continue;
      const bName = add.input[0] === mul.output[0] ? add.input[1]! : add.input[0]!;
      // Walk past max pools to the convolution that reads the affine's result.
      const pools: OnnxNode[] = [];
      let next = g.soleConsumer(add.output[0]!);
      while (next?.opType === 'MaxPool' && next.output.length === 1) {
        pools.push(next);
        next = g.soleConsumer(next.output[0]!);
      }
      if (!unpaddedConv(next, g) || next.input[0] !== (pools.at(-1)?.output[0] ?? add.output[0])) continue;
      const w = g.inits.get(next.input[1]!)!;
      const [outC, inC, kh, kw] = w.dims as [number, number, number, number];
      const [sc, bc] = [g.constFloats(mul.input[1 - xIdx]!), g.constFloats(bName)];
      const s = sc && perChannel(sc.values, sc.dims, inC);
      const b = bc && perChannel(bc.values, bc.dims, inC);
      if (!s || !b || (pools.length && s.some((v) => !(v > 0)))) continue;
      const weights = g.constFloats(w.name)!.values.slice();
      const biasC = next.input[2] ? g.constFloats(next.input[2]) : undefined;
      const bias = biasC ? biasC.values.slice() : new Float32Array(outC);
      const k = kh * kw;
      for (let o = 0; o < outC; o++) {
        let shift = 0;
        for (let i = 0; i < inC; i++) {
          const at = (o * inC + i) * k;
          let sum = 0;
          for (let j = 0; j < k; j++) sum += weights[at + j]!;
          shift += b[i]! * sum;
          for (let j = 0; j < k; j++) weights[at + j]! *= s[i]!;
        }
        bias[o]! += shift;
      }
      const wNew = floatInit(fresh('w'), w.dims, weights);
      const bNew = floatInit(fresh('b'), [outC], bias);
      m.graph.initializer.push(wNew, bNew);
      next.input = [next.input[0]!, wNew.name, bNew.name];
      // The first node after the affine reads its input directly.
      const first = pools[0] ?? next;
      first.input = [mul.input[xIdx]!, ...first.input.slice(1)];
      m.graph.node = m.graph.node.filter((n) => n !== mul && n !== add);
      folded++;
      done = true;
      break;
    }
    if (!done) break;
  }
  prune(m);
  return folded;
}
