import { join } from 'node:path';
import { FACE_MODEL_SPARE_CORE_THREADS, FACE_MODEL_THREADS } from '../analysis/faces';
import { FACE_DESCRIPTOR } from '../analysis/gallery';
import type { AppConfig } from '../config';
import { InferenceEngine, loadManifest } from '../inference';

/**
 * The inference engine over `config`'s models, as every local service uses it: validated
 * manifest, `config.modelThreads` per session, and the small face models capped at
 * `faceThreads` (default `FACE_MODEL_THREADS`: a second thread costs them CPU without saving time
 * while the other core is busy; docs/faces.md), and so is the person descriptor, run face by face
 * on a 150 px crop like them.
 */
export function openLocalEngine(config: AppConfig, faceThreads: Readonly<Record<string, number>> = FACE_MODEL_THREADS): InferenceEngine {
  return new InferenceEngine(loadManifest(join(config.modelsDir, 'manifest.json')), {
    modelsDir: config.modelsDir,
    intraOpNumThreads: config.modelThreads,
    maxModelThreads: { ...faceThreads, [FACE_DESCRIPTOR.modelId]: 1 },
  });
}

/**
 * The engine whose face models take `FACE_MODEL_SPARE_CORE_THREADS` (`spare-core-runner.ts`):
 * sessions open on first use, so a process that never sees the other core idle during faces
 * never loads them.
 */
export function openSpareCoreEngine(config: AppConfig): InferenceEngine {
  return openLocalEngine(config, FACE_MODEL_SPARE_CORE_THREADS);
}
