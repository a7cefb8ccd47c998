/** Builds the detect service over the local models for the desktop app and the CLI. */
import { engineRunner } from '../analysis/faces';
import type { AppConfig } from '../config';
import { createImageLoader, intakeOptions } from '../intake';
import { createDetectService, type DetectService } from './detect.service';
import { openLocalEngine } from './local-engine';

/** A detect service plus `close()` for its models and connections. */
export interface OpenDetectService {
  service: DetectService;
  close(): Promise<void>;
}

/**
 * Opens the detect service with `config`'s models and threads (the face models capped at
 * `FACE_MODEL_THREADS`) and desktop intake (local files
 * and `file:` URLs allowed, the user's LAN trusted unless `blockPrivateNetworks`).
 */
export function openDetectService(config: AppConfig, opts: { maxFaces?: number } = {}): OpenDetectService {
  const engine = openLocalEngine(config);
  const loader = createImageLoader(intakeOptions('desktop', { blockPrivateNetworks: config.blockPrivateNetworks }));
  return {
    service: createDetectService({ runner: engineRunner(engine), loader, maxFaces: opts.maxFaces }),
    async close() {
      await loader.close();
      await engine.dispose();
    },
  };
}
