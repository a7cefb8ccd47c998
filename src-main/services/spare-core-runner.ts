/**
 * The face models with a second intra-op thread while the other core is idle. onnxruntime-node
 * runs `session.run` on the calling thread, so a single analyze call uses two cores only while its
 * face-free branch runs in the analyze worker; once that has returned (a group photo's faces take
 * longer than the branch), the faces ran on one core while the other waited. This runner sends a
 * face model's run to `wide` (sessions with `FACE_MODEL_SPARE_CORE_THREADS`) when `otherCoreIdle()`
 * says so, else to `narrow`. The two sessions compute the same graph; only the threads differ.
 */
import { FACE_MODEL_SPARE_CORE_THREADS, FACE_MODEL_THREADS } from '../analysis/faces';
import type { ModelRunner } from '../inference';

/** Face models that run faster on two threads (the others gain nothing from a wide session). */
const WIDER = new Set(
  Object.entries(FACE_MODEL_SPARE_CORE_THREADS)
    .filter(([id, threads]) => threads > FACE_MODEL_THREADS[id as keyof typeof FACE_MODEL_THREADS])
    .map(([id]) => id),
);

export function spareCoreRunner(narrow: ModelRunner, wide: ModelRunner, otherCoreIdle: () => boolean): ModelRunner {
  return {
    spec: (id) => narrow.spec(id),
    run: (id, feeds, signal) => (WIDER.has(id) && otherCoreIdle() ? wide : narrow).run(id, feeds, signal),
  };
}
