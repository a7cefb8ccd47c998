// The run lease of a batch on a real database file: a live holder refuses a second run, a dead
// or silent one does not block. Holders are real processes (a sleeping child) or none (a pid past pid_max).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_STALE_MS } from '../../../src-main/services/batches-lease';
import { migrate, openDatabase, type Db } from '../../../src-main/store';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { batchOptions, fakeProcessor, listOf, makeService, routeUniqueImages } from '../jobs/support';

let server: FixtureServer;
let sleeper: ChildProcess;
let deadPid: number;
let db: Db;

beforeAll(async () => {
  server = await startFixtureServer();
  sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)']);
  // A process that is gone: one past the kernel's highest pid, which no process can have. (The pid
  // of a child that exited can be reused within seconds where pid_max is 32 768 and a test run
  // starts browsers and many processes.)
  deadPid = (process.platform === 'linux' ? Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8')) : 4_194_304) + 1;
  db = openDatabase(join(mkdtempSync(join(tmpdir(), 'picscan-lease-')), 'picscan.db'));
  migrate(db);
});
afterAll(async () => {
  sleeper.kill();
  db.close();
  await server.close();
});

async function batchHeldBy(pid: number, host: string, heartbeatAgoMs: number): Promise<number> {
  const urls = await routeUniqueImages(server, 3, `/l${pid}-${host}-${heartbeatAgoMs}`);
  const { batch } = await makeService(db, fakeProcessor()).create(listOf(urls), batchOptions());
  db.prepare(`UPDATE batches SET status = 'running' WHERE id = ?`).run(batch.id);
  db.prepare('INSERT INTO batch_leases VALUES (?, ?, ?, ?, ?, ?)').run(
    batch.id,
    'other-run',
    pid,
    host,
    '2026-01-02T03:04:05.000Z',
    Date.now() - heartbeatAgoMs,
  );
  return batch.id;
}

describe('batch run lease', () => {
  it('refuses start and pause while a live process on this host holds the batch, naming it', async () => {
    const id = await batchHeldBy(sleeper.pid!, hostname(), 0);
    const service = makeService(db, fakeProcessor());
    const message = `Batch ${id} is already running in process ${sleeper.pid} on ${hostname()} (started 2026-01-02T03:04:05.000Z)`;
    await expect(service.start(id)).rejects.toMatchObject({ code: 'batch-locked', message: expect.stringContaining(message) });
    await expect(service.pause(id)).rejects.toMatchObject({ code: 'batch-locked' });
    expect(db.prepare('SELECT pid FROM batch_leases WHERE batch_id = ?').get(id)).toEqual({ pid: sleeper.pid });
  });

  it('shows a batch whose process is gone as paused, and one a live process runs as running', async () => {
    const live = await batchHeldBy(sleeper.pid!, hostname(), 0);
    const killed = await batchHeldBy(deadPid, hostname(), 0);
    const silent = await batchHeldBy(sleeper.pid!, 'another-host', LEASE_STALE_MS + 1_000);
    const service = makeService(db, fakeProcessor());
    const status = (id: number): string | undefined => service.list().find((b) => b.id === id)?.status;
    expect(status(live)).toBe('running');
    expect(service.get(live).status).toBe('running');
    // kill -9 of `picscan batch`: the row still says running, nothing runs it.
    expect(status(killed)).toBe('paused');
    expect(service.get(killed).status).toBe('paused');
    expect(status(silent)).toBe('paused');
    // Stored as it was: the next start takes it over from there.
    expect(db.prepare('SELECT status FROM batches WHERE id = ?').get(killed)).toEqual({ status: 'running' });
  });

  it('takes over at once from a process on this host that is gone (crash)', async () => {
    const id = await batchHeldBy(deadPid, hostname(), 0);
    const summary = await makeService(db, fakeProcessor()).start(id);
    expect(summary).toMatchObject({ status: 'done', counts: { done: 3 } });
    expect(db.prepare('SELECT count(*) AS n FROM batch_leases WHERE batch_id = ?').get(id)).toEqual({ n: 0 });
  });

  it('on another host: refuses while the heartbeat is fresh, takes over once it is stale', async () => {
    const fresh = await batchHeldBy(1, 'other-host', 0);
    await expect(makeService(db, fakeProcessor()).start(fresh)).rejects.toMatchObject({ code: 'batch-locked' });
    const stale = await batchHeldBy(1, 'other-host', LEASE_STALE_MS + 1_000);
    expect(await makeService(db, fakeProcessor()).start(stale)).toMatchObject({ status: 'done' });
  });
});
