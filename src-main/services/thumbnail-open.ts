/** Builds the thumbnail service over the local models for the desktop app, the CLI and the API. */
import type { AppConfig } from '../config';
import type { ModelRunner } from '../inference';
import { createImageLoader, intakeOptions, type ImageLoader } from '../intake';
import { openLocalEngine } from './local-engine';
import { createThumbnailService, type ThumbnailService } from './thumbnail.service';
import { faceRegions, objectRegions, saliencyRegions, type RegionSource } from './thumbnail/regions';

/**
 * Smart cropping's region sources over one engine: faces, then objects, then saliency. A main
 * subject source (segmentation) goes between faces and objects when it exists.
 */
export function defaultRegionSources(engine: ModelRunner): RegionSource[] {
  return [faceRegions(engine), objectRegions(engine), saliencyRegions()];
}

/** A thumbnail service plus `close()` for its models and connections. */
export interface OpenThumbnailService {
  service: ThumbnailService;
  close(): Promise<void>;
}

/**
 * Opens the thumbnail service with `config`'s models and desktop intake (local files and `file:`
 * URLs allowed, the user's LAN trusted unless `blockPrivateNetworks`), or with `loader` when given.
 */
export function openThumbnailService(config: AppConfig, opts: { loader?: ImageLoader } = {}): OpenThumbnailService {
  const engine = openLocalEngine(config);
  const loader = opts.loader ?? createImageLoader(intakeOptions('desktop', { blockPrivateNetworks: config.blockPrivateNetworks }));
  return {
    service: createThumbnailService({ loader, regionSources: defaultRegionSources(engine) }),
    async close() {
      if (!opts.loader) await loader.close();
      await engine.dispose();
    },
  };
}
