/** Builds the detect service over the local models for the desktop app and the CLI. */
import type { AppConfig } from '../config';
import { createImageLoader, intakeOptions, type LoadedPixels, type LoadOptions } from '../intake';
import { createDetectService, type DetectService } from './detect.service';
import { openLocalEngine } from './local-engine';

/** A detect service plus `close()` for its models and connections. */
export interface OpenDetectService {
  service: DetectService;
  close(): Promise<void>;
}

/** Options of `openDetectService`. */
export interface OpenDetectOptions {
  maxFaces?: number;
  /**
   * Told why an image could not be loaded (intake's AppError: "… is 30000 × 30000 px; each side
   * must be at most …"), since the Kairos body only carries the reference's generic message.
   */
  onLoadError?: (err: unknown) => void;
}

/**
 * Opens the detect service with `config`'s models and threads (the face models capped at
 * `FACE_MODEL_THREADS`) and desktop intake (local files
 * and `file:` URLs allowed, the user's LAN trusted unless `blockPrivateNetworks`).
 */
export function openDetectService(config: AppConfig, opts: OpenDetectOptions = {}): OpenDetectService {
  const engine = openLocalEngine(config);
  const loader = createImageLoader(intakeOptions('desktop', { blockPrivateNetworks: config.blockPrivateNetworks }));
  const watched = {
    async load(input: string, signal: AbortSignal | undefined, o: LoadOptions): Promise<LoadedPixels> {
      try {
        return await loader.load(input, signal, o);
      } catch (err) {
        opts.onLoadError?.(err);
        throw err;
      }
    },
  };
  return {
    service: createDetectService({ runner: engine, loader: watched, maxFaces: opts.maxFaces }),
    async close() {
      await loader.close();
      await engine.dispose();
    },
  };
}
