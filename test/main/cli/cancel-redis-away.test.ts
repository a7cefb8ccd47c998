// `picscan cancel` and `picscan delete` of a paused distributed batch while its Redis does not
// answer (a real redis-server stopped with SIGSTOP: connections open, no reply): the command
// finishes, says on stderr that the batch's data stays in Redis until the next distributed run,
// and notes it in the database.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchesRepo, migrate, openDatabase, RedisLeftoversRepo } from '../../../src-main/store';
import { runPicscan } from '../../helpers/cli';
import { redisAvailable, startRedis, type TestRedis } from '../../helpers/redis';
import { ANALYZE_ALL } from '../jobs/support';

const SLOW = { timeout: 60_000 };

let redis: TestRedis;
beforeAll(async () => {
  if (redisAvailable) redis = await startRedis();
});
afterAll(async () => {
  redis?.thaw();
  await redis?.stop();
});

/** A paused distributed batch on `redisUrl` with the queue key `queueKey`; its id. */
function seedPausedBatch(path: string, redisUrl: string, queueKey: string): number {
  const db = openDatabase(path);
  try {
    migrate(db);
    const batches = new BatchesRepo(db);
    const id = batches.insert({ name: queueKey, operation: ANALYZE_ALL, backend: { kind: 'distributed', redisUrl, queueKey } });
    batches.markImported(id);
    batches.setStatus(id, 'paused');
    return id;
  } finally {
    db.close();
  }
}

const notedKeys = (path: string): string[] => {
  const db = openDatabase(path);
  try {
    return new RedisLeftoversRepo(db).on(redis.url).map((l) => l.queueKey);
  } finally {
    db.close();
  }
};

describe.skipIf(!redisAvailable)('picscan cancel and delete while Redis does not answer', () => {
  it('finish, say what stays in Redis, and note it for the next distributed run', SLOW, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-cancel-redis-away-'));
    const db = join(dir, 'picscan.db');
    const env = { PICSCAN_DATA_DIR: dir };
    const cancelled = seedPausedBatch(db, redis.url, 'cancel-me');
    const deleted = seedPausedBatch(db, redis.url, 'delete-me');
    redis.freeze();

    const cancel = await runPicscan(['cancel', String(cancelled), '--db', db, '--json'], { env });
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(JSON.parse(cancel.stdout).status).toBe('cancelled');
    expect(cancel.stderr).toMatch(/Could not remove the batch's data from Redis at redis:\/\/127\.0\.0\.1:\d+ \(queue cancel-me\)/);
    expect(cancel.stderr).toMatch(/the next distributed run on it removes it/);

    const del = await runPicscan(['delete', String(deleted), '--db', db], { env });
    expect(del.code, del.stderr).toBe(0);
    expect(del.stderr).toMatch(/\(queue delete-me\)[^\n]*\nDeleted batch/);

    expect(notedKeys(db).sort()).toEqual(['cancel-me', 'delete-me']);
    redis.thaw();
  });
});
