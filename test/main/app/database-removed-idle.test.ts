// The database file removed or replaced while `picscan serve` is idle (no batch running): SQLite
// fails no write then, and what the next UI or API call stored went into the unlinked file, lost
// when the process exits. Real `picscan serve` processes on real SQLite files, over loopback HTTP.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src-main/store';
import { runPicscan } from '../../helpers/cli';
import { startServe } from '../../helpers/web-serve';
import { seedDatabaseFile } from '../store/seed';

const SLOW = { timeout: 240_000 };

const removeDb = (db: string): void => ['', '-wal', '-shm'].forEach((suffix) => rmSync(`${db}${suffix}`, { force: true }));

const batchNames = (db: string): unknown => {
  const conn = openDatabase(db, { readonly: true });
  try {
    return conn.prepare('SELECT id, name, (SELECT count(*) FROM items WHERE batch_id = batches.id) AS items FROM batches').all();
  } finally {
    conn.close();
  }
};

describe('the database file goes away while picscan serve is idle', () => {
  it('removed: the next UI and API calls are refused naming the file, and what it held is written back to the path', SLOW, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-idle-removed-'));
    const db = join(dir, 'picscan.db');
    const env = { PICSCAN_DATA_DIR: dir };
    seedDatabaseFile(db, 3);
    const key = (
      JSON.parse((await runPicscan(['keys', 'create', '--name', 'ci', '--tier', 'basic', '--json', '--db', db], { env })).stdout) as {
        key: string;
      }
    ).key;

    const serve = await startServe(db, { env });
    try {
      expect(await serve.invoke('batches:list')).toMatchObject({ ok: true, value: [{ id: 1 }] });
      removeDb(db);

      // A delete that would have gone into the unlinked file only.
      const refused = await serve.invoke('batches:delete', { batchId: 1 });
      expect(refused).toMatchObject({ ok: false, error: { code: 'storage-failed' } });
      expect(refused.error!.message).toBe(
        `The database ${db} was removed while picscan was running, so nothing more can be stored in it; everything it held was saved to ${db}. Restart picscan to go on.`,
      );
      expect(await serve.invoke('batches:list')).toMatchObject({ ok: false, error: { code: 'storage-failed' } });

      // The API's image calls (each charges the key's credit) are refused the same way.
      const api = await fetch(`${serve.origin}/ai/vision/analyze?image=http://127.0.0.1:1/x.png&features=Color&key=${key}`);
      expect(api.status).toBeGreaterThanOrEqual(500);
      expect(JSON.stringify(await api.json())).toContain(`The database ${db} was removed while picscan was running`);
    } finally {
      await serve.stop();
    }
    // The batch the refused delete would have removed, and the key, are in the file at the path.
    expect(batchNames(db)).toEqual([{ id: 1, name: 'seeded', items: 3 }]);
    const keys = await runPicscan(['keys', 'list', '--json', '--db', db], { env });
    expect(JSON.parse(keys.stdout)).toMatchObject([{ name: 'ci' }]);
  });

  it('replaced by another database: that one is left alone, what the old one held is saved beside it', SLOW, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-idle-replaced-'));
    const db = join(dir, 'picscan.db');
    const env = { PICSCAN_DATA_DIR: dir };
    seedDatabaseFile(db, 3);
    const serve = await startServe(db, { env });
    try {
      expect(await serve.invoke('batches:list')).toMatchObject({ ok: true, value: [{ id: 1 }] });
      removeDb(db);
      seedDatabaseFile(db, 5);
      const refused = await serve.invoke('batches:delete', { batchId: 1 });
      expect(refused).toMatchObject({ ok: false, error: { code: 'storage-failed' } });
      expect(refused.error!.message).toMatch(
        new RegExp(`^The database ${db} was replaced while picscan was running, .*; everything it held was saved to ${db}\\.saved-`),
      );
    } finally {
      await serve.stop();
    }
    expect(batchNames(db)).toEqual([{ id: 1, name: 'seeded', items: 5 }]);
    const saved = join(
      dir,
      readdirSync(dir).find((f) => f.startsWith('picscan.db.saved-'))!,
    );
    expect(batchNames(saved)).toEqual([{ id: 1, name: 'seeded', items: 3 }]);
  });
});
