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
  /** Distributed batches: this install's model set and the Redis URL to run them on. */
  distributed?: BatchServiceDeps['distributed'];
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
    distributed: opts.distributed,
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
 * database is open and migrated, and after `beforeStart` (e.g. "can this batch start?") has
 * passed: a database that cannot be used, or a batch another process runs, fails first, with
 * nothing started that would keep the process alive. On any failure everything opened is closed.
 */
export async function openBatchServiceWith(
  config: AppConfig,
  opts: Omit<OpenBatchOptions, 'processor'> & {
    startProcessor?: () => Promise<ImageProcessor>;
    beforeStart?: (service: BatchService) => void;
  },
): Promise<OpenBatchService> {
  const db = openMigrated(config.dbPath);
  let started: ImageProcessor | undefined;
  // Stands in for the processor until it has started (and closes it with the service).
  const processor: ImageProcessor = {
    process: (image, operation, signal) => (started ?? unavailableProcessor).process(image, operation, signal),
    close: async () => {
      await started?.close?.();
    },
  };
  let open: OpenBatchService;
  try {
    open = serviceOn(db, config, { ...opts, processor });
  } catch (err) {
    db.close();
    throw err;
  }
  try {
    opts.beforeStart?.(open.service);
    started = await opts.startProcessor?.();
    return open;
  } catch (err) {
    await open.close();
    throw err;
  }
}
