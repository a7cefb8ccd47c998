import { readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../helpers/paths';
import { redisAvailable, startRedis } from '../../../helpers/redis';
import { distributedEnv, startPicscan, tempDir, writeList, type Child } from './support';

// How `picscan worker` starts and stops when Redis or its models are not right: a real
// redis-server and real worker processes. Each must end promptly with one clear line, never hang
// or quietly work in the wrong place.

const dist = distributedEnv({ images: false });
const { track } = dist;

/** Seconds of --grace the workers here get: short, the tests measure how long stopping takes. */
const GRACE_S = 1;
/** What stopping may take beyond the grace time (the worker's own margin, plus process start-up slack). */
const STOP_SLACK_MS = 5_000;

const worker = (url: string, env: NodeJS.ProcessEnv = {}): Child =>
  track(startPicscan(['worker', '--redis', url, '--name', 'w-start', '--concurrency', '1', '--grace', String(GRACE_S)], env));

/** Sends `signal` and resolves with the exit code and how long the process took to end, ms. */
async function stopTimed(w: Child, signal: NodeJS.Signals): Promise<{ code: number | null; ms: number }> {
  const t0 = Date.now();
  w.proc.kill(signal);
  const code = await Promise.race([w.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), GRACE_S * 1000 + STOP_SLACK_MS))]);
  if (code === 'hung') throw new Error(`still running ${GRACE_S * 1000 + STOP_SLACK_MS} ms after ${signal}; output:\n${w.output()}`);
  return { code, ms: Date.now() - t0 };
}

/** A models folder like the real one with one file missing and another truncated. */
function brokenModels(): { dir: string; missing: string; corrupt: string } {
  const dir = tempDir('picscan-models-broken-');
  const models = join(repoRoot, 'models');
  const manifest = JSON.parse(readFileSync(join(models, 'manifest.json'), 'utf8')) as { models: { file: string }[] };
  const corrupt = manifest.models[0]!.file;
  const missing = manifest.models[1]!.file;
  for (const entry of readdirSync(models)) {
    if (entry === corrupt || entry === missing) continue;
    symlinkSync(join(models, entry), join(dir, entry));
  }
  writeFileSync(join(dir, corrupt), readFileSync(join(models, corrupt)).subarray(0, 1000));
  return { dir, missing, corrupt };
}

describe.skipIf(!redisAvailable)('picscan worker: start-up checks and stopping', { timeout: 60_000 }, () => {
  it.each([
    ['no password (NOAUTH)', (port: number) => `redis://127.0.0.1:${port}`],
    ['a wrong password (WRONGPASS)', (port: number) => `redis://:hunter2@127.0.0.1:${port}`],
  ])('refuses to start with %s: one line naming the address, exit 1', async (_what, url) => {
    const locked = await startRedis();
    try {
      locked.cli('CONFIG', 'SET', 'requirepass', 's3cret');
      const w = worker(url(locked.port));
      expect(await w.exited, w.output()).toBe(1);
      expect(w.output()).toMatch(new RegExp(`Redis at redis://(:\\*\\*\\*@)?127\\.0\\.0\\.1:${locked.port}/? refused the credentials`));
      expect(w.output()).not.toContain('hunter2');
      expect(w.output()).not.toMatch(/ready/);
    } finally {
      await locked.stop();
    }
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('nothing listening: %s still ends it within the grace time', async (signal) => {
    const w = worker('redis://127.0.0.1:1');
    await w.waitFor(/ready/, 30_000);
    await w.waitFor(/ECONNREFUSED/, 10_000);
    // Reconnection attempts at 0.2, 0.4, 0.8, 1.6 s…, each reported by three clients: one line,
    // not one per client and attempt as before (repeated-warnings.ts).
    await sleep(2_500);
    expect(w.output().match(/redis [a-z ]+: connect ECONNREFUSED/g), w.output()).toHaveLength(1);
    const { code } = await stopTimed(w, signal);
    expect(code, w.output()).toBe(1);
    expect(w.output()).toMatch(/stalled-job check/);
  });

  it('a SIGTERM during start-up (models loading) is kept: the worker stops once up, never killed outright', async () => {
    const w = worker('redis://127.0.0.1:1');
    // Logged after the Redis check, before the models load (a second or more).
    await w.waitFor(/not reachable yet/, 30_000);
    w.proc.kill('SIGTERM');
    const code = await w.exited;
    // Without the listener in place during start-up the process died of the signal (code null).
    // Closing before Redis was ever reached may settle (0) or be abandoned (1): both are clean ends.
    expect([0, 1], w.output()).toContain(code);
    expect(w.output()).toMatch(/ready[^]*SIGTERM: finishing the jobs in hand[^]*(stopped after 0 images|stalled-job check)/);
  });

  it('Redis starts refusing the password while running: SIGTERM still ends it within the grace time', async () => {
    const locked = await startRedis();
    try {
      const w = worker(locked.url);
      await w.waitFor(/connected to Redis/, 30_000);
      locked.cli('CONFIG', 'SET', 'requirepass', 's3cret');
      locked.cli('-a', 's3cret', '--no-auth-warning', 'CLIENT', 'KILL', 'TYPE', 'normal');
      await w.waitFor(/NOAUTH/, 15_000);
      const { code } = await stopTimed(w, 'SIGTERM');
      expect(code, w.output()).toBe(1);
    } finally {
      await locked.stop();
    }
  });

  it('with Redis there, SIGTERM stops it cleanly: exit 0, unregistered', async () => {
    const w = worker(dist.redis.url);
    await w.waitFor(/connected to Redis/, 30_000);
    const { code, ms } = await stopTimed(w, 'SIGTERM');
    expect(code, w.output()).toBe(0);
    expect(ms).toBeLessThan(GRACE_S * 1000 + STOP_SLACK_MS);
    expect(dist.redis.cli('HEXISTS', 'picscan:workers', 'w-start').trim()).toBe('0');
  });

  it('a database the server does not have: worker and coordinator refuse, never database 0', async () => {
    const url = `${dist.redis.url}/99`;
    const w = worker(url);
    expect(await w.exited, w.output()).toBe(1);
    expect(w.output()).toMatch(new RegExp(`Redis database 99 does not exist on 127\\.0\\.0\\.1:${dist.redis.port} \\(it has 16: 0–15\\)`));
    expect(w.output()).not.toMatch(/ready|connected to Redis/);

    const dir = tempDir('picscan-dist-db99-');
    const coordinator = track(
      startPicscan(['batch', writeList(dir, ['http://127.0.0.1:1/a.jpg']), '--db', join(dir, 'picscan.db'), '--redis', url]),
    );
    expect(await coordinator.exited, coordinator.output()).toBe(1);
    expect(coordinator.output()).toMatch(/Redis database 99 does not exist/);
    expect(dist.redis.cli('HEXISTS', 'picscan:workers', 'w-start').trim()).toBe('0');
    expect(dist.redis.cli('KEYS', 'picscan:batch*').trim()).toBe('');
  });

  it('a --grace that is not a number of seconds is a bad command line (exit 2), not a silent 30 s or a negative wait', async () => {
    for (const grace of ['abc', '', '-5', 'Infinity']) {
      const w = track(startPicscan(['worker', '--redis', dist.redis.url, '--name', 'w-start', '--grace', grace]));
      expect(await w.exited, `${JSON.stringify(grace)}: ${w.output()}`).toBe(2);
      expect(w.output()).toMatch(/--grace must be a number of seconds/);
      expect(w.output()).not.toMatch(/ready|connected to Redis/);
    }
  });

  it('missing or corrupt model files: refuses to start, naming the first bad file, before touching Redis', async () => {
    const { dir, corrupt } = brokenModels();
    const w = worker(dist.redis.url, { PICSCAN_MODELS_DIR: dir });
    expect(await w.exited, w.output()).toBe(1);
    expect(w.output()).toMatch(new RegExp(`corrupt or outdated .*${corrupt.replace('.', '\\.')}`));
    expect(w.output()).not.toMatch(/ready|connected to Redis/);
    expect(dist.redis.cli('HEXISTS', 'picscan:workers', 'w-start').trim()).toBe('0');
  });
});
