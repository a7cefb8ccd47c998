import type { AppConfig } from '../config';
import { AppError, type Logger } from '../core';
import type { ImageProcessor } from '../jobs';
import { migrate, openDatabase } from '../store';
import { BatchService, type BatchServiceDeps } from './batches.service';

/** An open batch service over the app database; `close()` pauses running batches and closes the file. */
export interface OpenBatchService {
  service: BatchService;
  close(): Promise<void>;
}

/** Stand-in until a processor is given: every analysis fails with `model-missing`. */
export const unavailableProcessor: ImageProcessor = {
  process: () => Promise.reject(new AppError('model-missing', 'The local analyze and detect models are not available in this build.')),
};

/**
 * Opens `config.dbPath` (creating and migrating it) and builds a BatchService on it. The CLI,
 * the desktop app and the local server all go through here, so they share one database.
 */
export function openBatchService(
  config: AppConfig,
  opts: {
    processor?: ImageProcessor;
    remoteProcessor?: BatchServiceDeps['remoteProcessor'];
    distributed?: BatchServiceDeps['distributed'];
    logger?: Logger;
  } = {},
): OpenBatchService {
  const db = openDatabase(config.dbPath);
  try {
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  const service = new BatchService({
    db,
    config,
    processor: opts.processor ?? unavailableProcessor,
    remoteProcessor: opts.remoteProcessor,
    distributed: opts.distributed,
    logger: opts.logger,
  });
  return {
    service,
    async close() {
      await service.close();
      db.close();
    },
  };
}
