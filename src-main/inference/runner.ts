/**
 * The one model runner interface every pipeline depends on: the manifest entry of a model (its
 * input names, shapes and preprocessing) and a run on named feeds. `InferenceEngine` implements
 * it; tests may pass any implementation (a fake that fails, a counter around the engine).
 */
import type { ModelSpec } from './manifest';
import type { TensorMap } from './tensor';

/** Runs models by manifest id. */
export interface ModelRunner {
  /** The manifest entry of `modelId` (`model-missing` if there is none). */
  spec(modelId: string): ModelSpec;
  /** Runs `modelId` on named feeds; outputs by name, float32 whatever the graph's element type. */
  run(modelId: string, feeds: TensorMap, signal?: AbortSignal): Promise<TensorMap>;
}

/** Outputs' data by name (for postprocessing that reads flat arrays). */
export function outputData(outputs: TensorMap): Record<string, Float32Array> {
  const res: Record<string, Float32Array> = {};
  for (const [name, t] of Object.entries(outputs)) res[name] = t.data;
  return res;
}
