/**
 * How the face pipeline runs its models: preprocess a window of the image as the model's manifest
 * entry says (size, value mapping, RGB or luma), run it through the one `ModelRunner`, and read
 * the outputs as flat arrays.
 */
import { inputLength, outputData, windowFeeds, type ModelRunner, type RgbImage, type Window } from '../../inference';
import { withBuffer } from './buffer-pool';

/** Manifest ids of the models this pipeline uses. */
export type FaceModelId = 'blazeface-back' | 'facemesh' | 'gear' | 'faceres' | 'emotion';

/**
 * Intra-op threads for the face models (the engine's `maxModelThreads`). All five run at batch 1
 * on ≤ 256 px inputs, and onnxruntime-node runs them one after another on the calling thread; a
 * second ORT thread cost 0.4–3.5 ms more CPU per run and saved no wall time on the 2-core machine
 * (detect at minHeadScale 0.1: ≈ 65 → 54 ms CPU per call; docs/benchmarks.md "## Faces").
 */
export const FACE_MODEL_THREADS: Readonly<Record<FaceModelId, number>> = Object.freeze({
  'blazeface-back': 1,
  facemesh: 1,
  gear: 1,
  faceres: 1,
  emotion: 1,
});

/**
 * preprocess → session for a face model on the square window `win` of `img` (a pooled input
 * buffer is reused); outputs' data by name.
 */
export function runOnWindow(
  runner: ModelRunner,
  id: FaceModelId,
  img: RgbImage,
  win: Window,
  signal?: AbortSignal,
): Promise<Record<string, Float32Array>> {
  const spec = runner.spec(id);
  return withBuffer(inputLength(spec), async (buf) => outputData(await runner.run(id, windowFeeds(img, spec, win, buf), signal)));
}
