/**
 * How the face pipeline runs its models: preprocess a window of the image as the model's manifest
 * entry says (size, value mapping, RGB or luma), run it through the one `ModelRunner`, and read
 * the outputs as flat arrays.
 */
import {
  batchItem,
  dynamicBatch,
  inputLength,
  outputData,
  sampledWindowFeeds,
  type ModelRunner,
  type RgbImage,
  type Window,
} from '../../inference';
import { withBuffer } from './buffer-pool';

/** Manifest ids of the models this pipeline uses. */
export type FaceModelId = 'blazeface-back' | 'facemesh' | 'gear' | 'faceres' | 'emotion';

/**
 * Intra-op threads for the face models (the engine's `maxModelThreads`). All five run on
 * ≤ 256 px inputs (the per-face four in small batches, `runOnWindows`), and onnxruntime-node runs
 * them one after another on the calling thread; a second ORT thread cost 0.4–3.5 ms more CPU per
 * run and saved no wall time on the 2-core machine (detect at minHeadScale 0.1: ≈ 65 → 54 ms CPU
 * per call; docs/benchmarks.md "## Faces").
 */
export const FACE_MODEL_THREADS: Readonly<Record<FaceModelId, number>> = Object.freeze({
  'blazeface-back': 1,
  facemesh: 1,
  gear: 1,
  faceres: 1,
  emotion: 1,
});

/**
 * Intra-op threads for the face models while the analyze worker's core has nothing to do (a
 * single analyze call once its face-free branch has returned, e.g. the many faces of a group
 * photo; `services/spare-core-runner.ts`). `npm run bench -- face-threads` on a quiet 2-core machine,
 * 1 → 2 threads, wall ms per crop at batch 1 / 4 / 8 (docs/benchmarks.md "## Peers"): faceres
 * 7.85 / 7.21 / 6.96 → 5.14 / 4.47 / 4.26, gear 7.75 / 7.43 / 7.38 → 4.49 / 4.18 / 4.08, facemesh
 * 3.51 / 3.46 / 3.78 → 3.91 / 2.62 / 2.47, emotion 0.98 / 0.95 / 0.93 → 0.86 / 0.63 / 0.57;
 * BlazeFace 5.96 → 5.93 at 8.96 ms CPU instead of 5.96, so it stays at one.
 */
export const FACE_MODEL_SPARE_CORE_THREADS: Readonly<Record<FaceModelId, number>> = Object.freeze({
  'blazeface-back': 1,
  facemesh: 2,
  gear: 2,
  faceres: 2,
  emotion: 2,
});

/**
 * preprocess → session for a face model on the square window `win` of `img` (a pooled input
 * buffer is reused; a large face is sampled from a smaller copy of the image,
 * `sampledWindowFeeds`); outputs' data by name.
 */
export async function runOnWindow(
  runner: ModelRunner,
  id: FaceModelId,
  img: RgbImage,
  win: Window,
  signal?: AbortSignal,
): Promise<Record<string, Float32Array>> {
  const spec = runner.spec(id);
  return withBuffer(inputLength(spec), async (buf) =>
    outputData(await runner.run(id, await sampledWindowFeeds(img, spec, [win], buf), signal)),
  );
}

/**
 * Faces per `session.run` at most, per model: larger groups run in chunks of this size. Measured
 * on the 2-core machine (fp32, 1 thread; docs/benchmarks.md "## Faces"): a crop costs the same
 * model CPU time at batch 1, 2, 4 and 8, but every extra crop in a batch grows the session's
 * memory arena for good (RSS per extra item: facemesh ≈ 6 MB, faceres ≈ 14, gear ≈ 55, emotion
 * ≈ 3), so the caps keep the growth to ≈ 20 MB per model and gear runs face by face.
 */
export const FACE_BATCH_LIMIT: Readonly<Record<FaceModelId, number>> = Object.freeze({
  'blazeface-back': 1,
  facemesh: 4,
  faceres: 2,
  gear: 1,
  emotion: 8,
});

/**
 * preprocess → session for a face model on the windows `wins` of `img`: chunks of up to
 * `FACE_BATCH_LIMIT[id]` crops go through one run each (a model without a dynamic batch runs them
 * one by one); outputs split per window, in input order (views into the batch outputs). The input
 * buffer is pooled: one of `FACE_BATCH_LIMIT[id]` crops per model, reused by every chunk.
 */
export async function runOnWindows(
  runner: ModelRunner,
  id: FaceModelId,
  img: RgbImage,
  wins: readonly Window[],
  signal?: AbortSignal,
): Promise<Record<string, Float32Array>[]> {
  const spec = runner.spec(id);
  const limit = FACE_BATCH_LIMIT[id];
  if (wins.length === 0) return [];
  if (wins.length === 1 || limit === 1 || !dynamicBatch(spec)) {
    const out: Record<string, Float32Array>[] = [];
    for (const w of wins) out.push(await runOnWindow(runner, id, img, w, signal));
    return out;
  }
  const len = inputLength(spec);
  return withBuffer(len * limit, async (buf) => {
    const out: Record<string, Float32Array>[] = [];
    for (let at = 0; at < wins.length; at += limit) {
      const chunk = wins.slice(at, at + limit);
      const outputs = outputData(await runner.run(id, await sampledWindowFeeds(img, spec, chunk, buf), signal));
      chunk.forEach((_, i) => {
        const item: Record<string, Float32Array> = {};
        for (const [name, data] of Object.entries(outputs)) item[name] = batchItem(data, data.length / chunk.length, i);
        out.push(item);
      });
    }
    return out;
  });
}
