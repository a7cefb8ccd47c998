/**
 * Frees the spatial dims of a fully convolutional NHWC graph (CenterNet): the input's height and
 * width and the outputs' grid become symbolic, and every 2× upsampling `Resize` takes `scales`
 * [1, 1, 2, 2] instead of its traced `sizes`. The app then feeds the letterboxed frame trimmed to
 * the image (`preprocess.trim`) instead of the whole square, so padding costs no convolutions.
 *
 * Checked, not assumed: the freed graph must give bit-identical outputs to the static one on the
 * traced square input (a Resize that was not a 2× upsampling would change a shape and fail), and
 * must run on a trimmed input whose sides are multiples of `multiple` px.
 */
import * as ort from 'onnxruntime-node';
import { decodeModel, encodeModel, floatInit } from './quantize/onnx-model';

type Dim = { dimValue?: number; dimParam?: string };
type TensorType = { tensorType: { elemType: number; shape: { dim: Dim[] } } };

export async function freeSpatialDims(bytes: Uint8Array, multiple: number): Promise<Uint8Array> {
  const m = decodeModel(bytes);
  for (const n of m.graph.node) {
    if (n.opType !== 'Resize') continue;
    const scales = `${n.name}_scales`;
    m.graph.initializer.push(floatInit(scales, [4], new Float32Array([1, 1, 2, 2])));
    n.input = [n.input[0]!, '', scales];
  }
  const used = new Set(m.graph.node.flatMap((n) => n.input));
  m.graph.initializer = m.graph.initializer.filter((i) => used.has(i.name));
  const input = m.graph.input[0] as { type: TensorType };
  const [, h, w] = input.type.tensorType.shape.dim.map((d) => d.dimValue!);
  input.type.tensorType.shape.dim[1] = { dimParam: 'height' };
  input.type.tensorType.shape.dim[2] = { dimParam: 'width' };
  for (const o of m.graph.output as { type: TensorType }[]) {
    o.type.tensorType.shape.dim[1] = { dimParam: 'grid_height' };
    o.type.tensorType.shape.dim[2] = { dimParam: 'grid_width' };
  }
  const freed = encodeModel(m);
  await checkFreed(bytes, freed, h!, w!, multiple);
  return freed;
}

/** Seeded 0..255 values (deterministic build). */
function pattern(n: number): Float32Array {
  const d = new Float32Array(n);
  let s = 1;
  for (let i = 0; i < n; i++) {
    s = (s * 16807) % 2147483647;
    d[i] = s % 256;
  }
  return d;
}

async function checkFreed(staticBytes: Uint8Array, freed: Uint8Array, h: number, w: number, multiple: number): Promise<void> {
  const opts = { intraOpNumThreads: 1, graphOptimizationLevel: 'disabled' as const };
  const [a, b] = await Promise.all([ort.InferenceSession.create(staticBytes, opts), ort.InferenceSession.create(freed, opts)]);
  try {
    const feed = { [a.inputNames[0]!]: new ort.Tensor('float32', pattern(h * w * 3), [1, h, w, 3]) };
    const [ra, rb] = [await a.run(feed), await b.run(feed)];
    for (const name of a.outputNames) {
      const x = ra[name]!.data as Float32Array;
      const y = rb[name]!.data as Float32Array;
      if (x.length !== y.length || x.some((v, i) => v !== y[i]))
        throw new Error(`freeSpatialDims: output ${name} differs from the static graph`);
    }
    const trimmed = { [a.inputNames[0]!]: new ort.Tensor('float32', pattern(h * multiple * 3), [1, h, multiple, 3]) };
    await b.run(trimmed);
  } finally {
    await Promise.all([a.release(), b.release()]);
  }
}
