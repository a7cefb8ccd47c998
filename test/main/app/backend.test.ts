import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBackend } from '../../../src-main/app';
import { loadConfig } from '../../../src-main/config';
import { schemaVersion } from '../../../src-main/store';

/** An install whose models folder is empty: any part that needs a model fails with model-missing. */
function noModels() {
  const dataDir = mkdtempSync(join(tmpdir(), 'picscan-app-'));
  return loadConfig({ dataDir, modelsDir: join(dataDir, 'no-models') }, {});
}

describe('createBackend', () => {
  it('builds parts on first use: the keys and batches need only the database, opened and migrated once', async () => {
    const config = noModels();
    const backend = createBackend(config);
    expect(existsSync(config.dbPath)).toBe(false); // nothing opened yet
    const db = backend.db();
    expect(schemaVersion(db)).toBeGreaterThan(0);
    const key = backend.api().keys.create({ name: 'k', tier: 'basic' });
    expect(backend.batches().list()).toEqual([]);
    expect(backend.db()).toBe(db); // one connection for every part
    expect(backend.api().keys.get(key.id).name).toBe('k');
    expect(() => backend.analyze()).toThrow(expect.objectContaining({ code: 'model-missing' }));
    await backend.close();
  });

  it('closes once, in order, and refuses parts afterwards', async () => {
    const backend = createBackend(noModels());
    const db = backend.db();
    const first = backend.close();
    expect(backend.close()).toBe(first);
    await first;
    expect(db.open).toBe(false);
    expect(() => backend.db()).toThrow(expect.objectContaining({ code: 'cancelled' }));
  });

  it('reports missing models when the batch models start', async () => {
    const backend = createBackend(noModels());
    await expect(backend.batchModels()).rejects.toMatchObject({ code: 'model-missing' });
    await backend.close();
  });
});
