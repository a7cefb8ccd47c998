import type { AppConfig } from '../../config';
import type { Logger } from '../../core';
import { workerBatchProcessor, type ImageProcessor } from '../../services/batches';
import { openGalleryService } from '../../services/gallery-open';
import type { GalleriesPort } from './handlers';

/** The local models for batches (in a worker thread) and the galleries, as far as this install has them. */
export interface LocalBackends {
  /** Undefined when the models are missing: items then fail with `model-missing`. */
  processor?: ImageProcessor;
  galleries?: GalleriesPort;
  close(): Promise<void>;
}

export async function openLocalBackends(config: AppConfig, logger: Logger): Promise<LocalBackends> {
  let processor: ImageProcessor | undefined;
  try {
    processor = await workerBatchProcessor(config, logger);
  } catch (err) {
    logger.warn('local models unavailable; analyses will fail with model-missing', {
      error: err instanceof Error ? err.message : String(err),
    });
  }
  let gallery: ReturnType<typeof openGalleryService> | undefined;
  try {
    gallery = openGalleryService(config);
  } catch (err) {
    logger.warn('galleries unavailable', { error: err instanceof Error ? err.message : String(err) });
  }
  const service = gallery?.service;
  return {
    processor,
    galleries: service && {
      list: async () => ({
        available: true,
        entries: service.list().map((e) => ({ id: e.id, kind: e.kind, name: e.name, references: e.references })),
      }),
      add: async (req) => {
        const e =
          req.kind === 'person'
            ? await service.addPerson(req.name, req.images, { faceNumber: req.faceNumber })
            : await service.addPlace(req.name, { latitude: req.latitude, longitude: req.longitude, mid: req.mid }, req.images);
        return { id: e.id, kind: e.kind, name: e.name, references: e.references };
      },
      remove: async (id) => void service.remove(id),
    },
    async close() {
      await Promise.allSettled([processor?.close?.(), gallery?.close()]);
    },
  };
}
