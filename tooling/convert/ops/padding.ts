/** TF padding modes -> ONNX explicit pads [top, left, bottom, right] for 2-D windows. */
import { attrs } from '../context';
import type { TfNode } from '../tfjs-source';

/**
 * SAME: out = ceil(in/stride); total = max((out-1)*stride + effectiveKernel - in, 0), with the
 * odd pixel at the end (TF convention). EXPLICIT: `explicit_paddings` in NHWC order.
 */
export function pads2d(
  node: TfNode,
  inHW: [number, number],
  kernelHW: [number, number],
  strides: [number, number],
  dilations: [number, number],
): number[] {
  const mode = attrs.str(node, 'padding', 'VALID');
  if (mode === 'VALID') return [0, 0, 0, 0];
  if (mode === 'EXPLICIT') {
    const p = attrs.ints(node, 'explicit_paddings');
    return [p[2]!, p[4]!, p[3]!, p[5]!];
  }
  if (mode !== 'SAME') throw new Error(`${node.name}: padding ${mode}`);
  const before: number[] = [];
  const after: number[] = [];
  for (let i = 0; i < 2; i++) {
    const inSize = inHW[i]!;
    const eff = (kernelHW[i]! - 1) * dilations[i]! + 1;
    const out = Math.ceil(inSize / strides[i]!);
    const total = Math.max((out - 1) * strides[i]! + eff - inSize, 0);
    before.push(Math.floor(total / 2));
    after.push(total - Math.floor(total / 2));
  }
  return [before[0]!, before[1]!, after[0]!, after[1]!];
}
