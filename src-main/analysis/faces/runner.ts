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
