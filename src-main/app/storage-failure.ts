import type { AppConfig } from '../config';
import { databaseError, isBusyError, isStorageError } from '../store';

/**
 * A host's view of a failure: a write the database file refused (read-only, disk full, a lock held
 * too long…) becomes the AppError `storage-failed` naming `config.dbPath` in one sentence; anything
 * else is returned as it is. A read-only database still opens, for the commands that only read, so
 * such a refusal first shows at a write.
 */
export function namedStorageFailure(config: Pick<AppConfig, 'dbPath'>, err: unknown): unknown {
  return isStorageError(err) || isBusyError(err) ? databaseError(config.dbPath, err) : err;
}
