import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../../helpers/http-server';
import { fixture, repoRoot } from '../../../helpers/paths';
import { redisAvailable, startRedis, type TestRedis } from '../../../helpers/redis';

/** Fixture images the distributed tests serve: photos and drawings, JPEG and PNG. */
export const FILES = [
  'cat_chelsea.jpg',
  'coffee_cup.jpg',
  'rocket_launchpad.jpg',
  'grace_hopper.jpg',
  'horse_silhouette_clipart.png',
  'text_bw.png',
];

/** Content type of a fixture by its extension. */
export const imageType = (file: string): string => (file.endsWith('.png') ? 'image/png' : 'image/jpeg');

/** The real services a distributed test file runs against, and the picscan processes it started. */
export interface DistributedEnv {
  /** A redis-server of this file (started before its tests, stopped after). */
  readonly redis: TestRedis;
  /** A loopback image server of this file. */
  readonly images: FixtureServer;
  /** Keeps `child` to be killed after the file's tests, whatever they leave running. */
  track(child: Child): Child;
}

/**
 * Starts a redis-server and (unless `images: false`) a loopback image server before the calling
 * file's tests, and after them kills the tracked children and stops both. Call at module level.
 */
export function distributedEnv({ images = true }: { images?: boolean } = {}): DistributedEnv {
  let redis: TestRedis | undefined;
  let server: FixtureServer | undefined;
  const children: Child[] = [];
  beforeAll(async () => {
    if (!redisAvailable) return;
    redis = await startRedis();
    if (images) server = await startFixtureServer();
  });
  afterAll(async () => {
    await Promise.all(children.map((c) => c.kill()));
    await server?.close();
    await redis?.stop();
  });
  const started = <T>(what: T | undefined, name: string): T => {
    if (what === undefined) throw new Error(`${name} is not running (started in beforeAll${images ? '' : '; this file asked for none'})`);
    return what;
  };
  return {
    get redis() {
      return started(redis, 'redis-server');
    },
    get images() {
      return started(server, 'the image server');
    },
    track: (child) => (children.push(child), child),
  };
}

/** A real `picscan` child process kept running (a worker, or a coordinator to kill). */
export interface Child {
  proc: ChildProcess;
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Waits until the output matches. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startPicscan(args: string[], env: NodeJS.ProcessEnv = {}): Child {
  const proc = spawn(process.execPath, [join(repoRoot, 'bin', 'picscan.js'), ...args], {
    cwd: repoRoot,
    // Its own app data folder: a worker opens the app database (settings, galleries), and a test
    // must not create or upgrade the one in the user's home.
    env: { ...process.env, PICSCAN_DATA_DIR: tempDir('picscan-child-data-'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('close', (code) => resolve(code)));
  return {
    proc,
    output: () => out,
    exited,
    async waitFor(pattern, timeoutMs = 180_000) {
      const until = Date.now() + timeoutMs;
      while (!pattern.test(out)) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${pattern}; output:\n${out}`);
        if (proc.exitCode !== null) throw new Error(`exited (${proc.exitCode}) before ${pattern}; output:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async kill(signal = 'SIGKILL') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/**
 * A worker child on `redis` with short locks (a dead worker's job moves on within ~2 s). A test
 * that counts runs passes a longer `lockMs`: a job whose lock renewal comes late on a loaded
 * machine (a cold first job) is given to another worker and runs twice, as BullMQ's stalled-job
 * check intends.
 */
export function startWorkerChild(redisUrl: string, name: string, env: NodeJS.ProcessEnv = {}, lockMs = 2000): Child {
  return startPicscan(
    [
      'worker',
      '--redis',
      redisUrl,
      '--name',
      name,
      '--concurrency',
      '2',
      '--allow-private-networks',
      '--lock-ms',
      String(lockMs),
      '--stalled-ms',
      '1000',
      '--grace',
      '10',
    ],
    env,
  );
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function writeList(dir: string, urls: string[]): string {
  const file = join(dir, 'list.txt');
  writeFileSync(file, `${urls.join('\n')}\n`);
  return file;
}

export interface ItemRow {
  id: number;
  url: string;
  status: string;
  error_code: string | null;
  reused_from: number | null;
  worker: string | null;
  results: number;
}

/** Every item of the database with its number of stored result rows. */
export function itemsOf(dbPath: string): ItemRow[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        `SELECT i.id, i.url, i.status, i.error_code, i.reused_from, i.worker,
                (SELECT count(*) FROM results r WHERE r.item_id = i.id) AS results
         FROM items i ORDER BY i.id`,
      )
      .all() as ItemRow[];
  } finally {
    db.close();
  }
}

/** Polls `check` until it is true. */
export async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * `n` distinct-URL items served by `images` under `/<tag>/`; each answers after `delayMs`
 * (the bytes repeat every FILES.length items, so some de-duplicate by content).
 */
export function slowUrls(images: FixtureServer, tag: string, n: number, delayMs: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const f = FILES[i % FILES.length]!;
    const path = `/${tag}/${i}/${f}`;
    images.route(path, { file: fixture(f), delayMs, headers: { 'content-type': imageType(f) } });
    return images.url(path);
  });
}

/** Items done so far in the database at `dbPath` (0 before the coordinator has made it). */
export function doneCount(dbPath: string): number {
  try {
    return itemsOf(dbPath).filter((i) => i.status === 'done').length;
  } catch {
    return 0;
  }
}

/** Every URL of the list is an item, done, with exactly one stored result. */
export function expectEachOnce(items: ItemRow[], urls: string[]): void {
  expect(items.map((i) => i.url).sort()).toEqual([...urls].sort());
  for (const i of items) expect(i, i.url).toMatchObject({ status: 'done', results: 1 });
}
