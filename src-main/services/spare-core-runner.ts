/**
 * The face models on both cores while the other core is idle. onnxruntime-node runs
 * `session.run` on the calling thread, so a single analyze or detect call uses two cores only
 * while analyze's face-free branch runs in the analyze worker; the rest of the time the faces ran
 * on one core while the other waited (a group photo's faces after the branch has returned, a
 * detect call's whole window search). While the worker says it is idle, this runner
 * - sends a per-face model's batched run to `wide` (sessions with
 *   `FACE_MODEL_SPARE_CORE_THREADS`), and
 * - hands a detector window's run to the worker itself (`WORKER_FACE_MODELS`): the window search
 *   keeps two runs in flight (faces/detector.ts), so one runs there while the next runs here.
 * Otherwise runs go to `narrow`. All three compute the same graphs; only where and on how many
 * threads differs.
 */
import { FACE_MODEL_SPARE_CORE_THREADS, FACE_MODEL_THREADS } from '../analysis/faces';
import type { ModelRunner, TensorMap } from '../inference';

/** Face models that run faster on two threads (the others gain nothing from a wide session). */
const WIDER = new Set(
  Object.entries(FACE_MODEL_SPARE_CORE_THREADS)
    .filter(([id, threads]) => threads > FACE_MODEL_THREADS[id as keyof typeof FACE_MODEL_THREADS])
    .map(([id]) => id),
);

/**
 * Face models whose runs go to the idle worker: the detector, run once per search window at batch
 * 1, which a second intra-op thread does not speed up (`npm run bench -- face-threads`: 7.2 →
 * 7.1 ms wall, 7.2 → 10.4 ms CPU), but a second thread running the next window does.
 */
export const WORKER_FACE_MODELS: ReadonlySet<string> = new Set(['blazeface-back']);

/** The other core, as the analyze worker offers it (analyze-worker.ts `BranchWorker`). */
export interface OtherCore {
  /** True while it has nothing in hand. */
  idle(): boolean;
  /** Runs one model there (on `local` if it cannot). */
  runModel(id: string, feeds: TensorMap, local: ModelRunner, signal?: AbortSignal): Promise<TensorMap>;
}

export function spareCoreRunner(narrow: ModelRunner, wide: ModelRunner, other: OtherCore): ModelRunner {
  return {
    spec: (id) => narrow.spec(id),
    run: (id, feeds, signal) => {
      if (!other.idle()) return narrow.run(id, feeds, signal);
      if (WORKER_FACE_MODELS.has(id)) return other.runModel(id, feeds, narrow, signal);
      return (WIDER.has(id) ? wide : narrow).run(id, feeds, signal);
    },
  };
}

/** Every model run on the other core (the analyze worker; on `local` where it cannot). */
export function otherCoreRunner(local: ModelRunner, other: OtherCore): ModelRunner {
  return { spec: (id) => local.spec(id), run: (id, feeds, signal) => other.runModel(id, feeds, local, signal) };
}
