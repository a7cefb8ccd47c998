import { createBackend, namedStorageFailure, type Backend, type BackendOptions } from '../app';
import type { AppConfig } from '../config';

/**
 * Runs one command over the composed backend and closes it after, also on failure. Parts are
 * built on first use: `picscan keys` opens only the database, `picscan analyze` only the models.
 */
export async function withBackend<T>(config: AppConfig, options: BackendOptions, run: (backend: Backend) => Promise<T> | T): Promise<T> {
  const backend = createBackend(config, options);
  try {
    return await run(backend);
  } catch (err) {
    throw namedStorageFailure(config, err);
  } finally {
    await backend.close();
  }
}
