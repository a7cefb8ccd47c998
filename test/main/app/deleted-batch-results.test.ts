// A batch deleted while the UI shows its results: real `picscan serve` and `picscan delete`
// processes on one real SQLite file, the web-mode bridge asked over loopback HTTP.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../src-main/store';
import { runPicscan } from '../../helpers/cli';
import { startServe } from '../../helpers/web-serve';
import { seedBatch } from '../store/seed';

const SLOW = { timeout: 240_000 };

describe('results of a batch deleted by another process', () => {
  it('the bridge answers not-found naming the deleted batch, not an empty page', SLOW, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-deleted-results-'));
    const db = join(dir, 'picscan.db');
    const env = { PICSCAN_DATA_DIR: dir };
    const conn = openDatabase(db);
    migrate(conn);
    const batchId = seedBatch(conn, 5);
    conn.close();

    const serve = await startServe(db, { env });
    try {
      const before = await serve.invoke('results:page', { filter: { batchId }, offset: 0, limit: 10 });
      expect(before).toMatchObject({ ok: true, value: { total: 5 } });

      const del = await runPicscan(['delete', String(batchId), '--db', db], { env });
      expect(del.code).toBe(0);

      const gone = { code: 'not-found', message: `Batch ${batchId} no longer exists: it was deleted.` };
      expect(await serve.invoke('results:page', { filter: { batchId }, offset: 0, limit: 10 })).toMatchObject({ ok: false, error: gone });
      expect(await serve.invoke('results:facets', { filter: { batchId } })).toMatchObject({ ok: false, error: gone });
      expect(await serve.invoke('batches:get', { batchId })).toMatchObject({ ok: false, error: gone });
      // The browser's export download: refused before its 200, not a body cut short.
      const csv = await serve.get(`/api/export?format=csv&filter=${encodeURIComponent(JSON.stringify({ batchId }))}`);
      expect(csv.status).toBe(404);
      expect(JSON.parse(csv.body)).toMatchObject({ ok: false, error: gone });
      // An id never given stays "there is no batch".
      expect(await serve.invoke('results:page', { filter: { batchId: 99 }, offset: 0, limit: 10 })).toMatchObject({
        ok: false,
        error: { code: 'not-found', message: 'There is no batch 99.' },
      });
      // Results across batches are still answered.
      expect(await serve.invoke('results:page', { filter: {}, offset: 0, limit: 10 })).toMatchObject({ ok: true, value: { total: 0 } });
    } finally {
      expect((await serve.stop()).code).toBe(0);
    }
  });
});
