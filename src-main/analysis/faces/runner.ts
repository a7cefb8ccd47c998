/**
 * The narrow model interface the face pipeline needs: run one model on one float32 input and
 * get its named float32 outputs. Adapted from the inference engine in `engine-runner.ts`;
 * tests may pass any implementation.
 */

/** Runs a model by manifest id on a single NHWC float32 input (batch 1). */
export interface FaceModelRunner {
  run(modelId: FaceModelId, input: Float32Array, signal?: AbortSignal): Promise<Record<string, Float32Array>>;
}

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
