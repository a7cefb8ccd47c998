import { AppError } from '../core';
import type { ApiServices } from '../services/api';
import { dbFileIdentity, dbFileState, saveDbCopy, type Db } from '../store';

/** Throws `storage-failed` once the database file the backend opened is no longer at its path. */
export type DbFileGuard = () => void;

/**
 * A guard over the file `db` has open, noted now. SQLite fails no write when its file is removed
 * or replaced: it goes on writing to the unlinked file, which vanishes when the process exits. A
 * running batch notices within its heartbeat (BatchService); an idle `picscan serve` or app had no
 * such check, so a batch created, a delete or an API call's credit went into the lost file. The
 * hosts call the guard before each UI and API call: one stat (microseconds). The first time it
 * finds the file gone, what the connection holds is saved as a file again (back at the path when
 * free, else beside it), unless a batch runs here (`running()`): that run pauses and saves it
 * itself. From then on every call is refused: only a restart opens the file at the path.
 */
export function dbFileGuard(db: Db, running: () => boolean): DbFileGuard {
  const identity = dbFileIdentity(db);
  let lost: AppError | undefined;
  return () => {
    if (lost) throw lost;
    if (!identity) return; // in memory
    const state = dbFileState(identity);
    if (state === 'same') return;
    const file = identity.file;
    let kept: string;
    if (running()) {
      kept = 'the running batch pauses and saves what it held (its notice says where)';
    } else {
      try {
        kept = `everything it held was saved to ${saveDbCopy(db, identity)}`;
      } catch (err) {
        kept = `what it held could not be saved elsewhere (${String(err)})`;
      }
    }
    lost = new AppError(
      'storage-failed',
      `The database ${file} was ${state} while picscan was running, so nothing more can be stored in it; ${kept}. Restart picscan to go on.`,
      { details: { file } },
    );
    throw lost;
  };
}

/** The API's gateway with the guard before each call: an image call's credit must not go into a lost file. */
export function guardedApi(api: ApiServices, guard: DbFileGuard): ApiServices {
  const gateway = new Proxy(api.gateway, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        try {
          guard();
        } catch (err) {
          return Promise.reject(err);
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { ...api, gateway };
}
