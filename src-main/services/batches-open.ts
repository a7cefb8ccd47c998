import type { AppConfig } from '../config';
import { AppError, type Logger } from '../core';
import type { ImageProcessor } from '../jobs';
import { migrate, openDatabase, type Db } from '../store';
import { BatchService, type BatchServiceDeps } from './batches.service';

/** An open batch service over the app database; `close()` pauses running batches and closes the file. */
export interface OpenBatchService {
  service: BatchService;
  close(): Promise<void>;
}

/** Options of `openBatchService`. */
export interface OpenBatchOptions {
  processor?: ImageProcessor;
  remoteProcessor?: BatchServiceDeps['remoteProcessor'];
  logger?: Logger;
}

/** Stand-in until a processor is given: every analysis fails with `model-missing`. */
export const unavailableProcessor: ImageProcessor = {
  process: () => Promise.reject(new AppError('model-missing', 'The local analyze and detect models are not available in this build.')),
};

/** Opens and migrates the database file; closes it again if migrating fails. */
function openMigrated(file: string): Db {
  const db = openDatabase(file);
  try {
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

function serviceOn(db: Db, config: AppConfig, opts: OpenBatchOptions): OpenBatchService {
  const service = new BatchService({
    db,
    config,
    processor: opts.processor ?? unavailableProcessor,
    remoteProcessor: opts.remoteProcessor,
    logger: opts.logger,
  });
  return {
    service,
    async close() {
      try {
        await service.close();
      } finally {
        db.close();
      }
    },
  };
}

/**
 * Opens `config.dbPath` (creating and migrating it) and builds a BatchService on it. The CLI,
 * the desktop app and the local server all go through here, so they share one database.
 */
export function openBatchService(config: AppConfig, opts: OpenBatchOptions = {}): OpenBatchService {
  return serviceOn(openMigrated(config.dbPath), config, opts);
}

/**
 * Like `openBatchService`, but starts the processor (worker threads, models) only once the
 * database is open and migrated: a database that cannot be used fails first, with nothing
 * started that would keep the process alive. If the processor fails to start, the database is
 * closed again.
 */
export async function openBatchServiceWith(
  config: AppConfig,
  opts: Omit<OpenBatchOptions, 'processor'> & { startProcessor?: () => Promise<ImageProcessor> },
): Promise<OpenBatchService> {
  const db = openMigrated(config.dbPath);
  let processor: ImageProcessor | undefined;
  try {
    processor = await opts.startProcessor?.();
    return serviceOn(db, config, { ...opts, processor });
  } catch (err) {
    await processor?.close?.();
    db.close();
    throw err;
  }
}
