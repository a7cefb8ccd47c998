/** Adapts the inference engine (named feeds, dims from the manifest) to `FaceModelRunner`. */
import type { InferenceEngine } from '../../inference';
import type { FaceModelRunner } from './runner';

/** The two engine methods the runner uses (tests may pass a stub). */
export type EngineLike = Pick<InferenceEngine, 'spec' | 'run'>;

/** A runner over `engine`: feeds the model's single declared input, returns outputs' data by name. */
export function engineRunner(engine: EngineLike): FaceModelRunner {
  return {
    async run(id, input, signal) {
      const spec = engine.spec(id).inputs[0];
      if (!spec) throw new Error(`model ${id} declares no input`);
      const out = await engine.run(id, { [spec.name]: { data: input, dims: spec.shape } }, signal);
      const res: Record<string, Float32Array> = {};
      for (const [name, t] of Object.entries(out)) res[name] = t.data;
      return res;
    },
  };
}
