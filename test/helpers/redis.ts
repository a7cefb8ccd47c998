/**
 * A real Redis for distributed-batch tests: Debian's `redis-server` on a free loopback port,
 * persistence off (no RDB, no AOF), in a temporary folder; `restart()` stops it and starts a new
 * one on the same port, so everything it held is gone (as after a crash of a cache-only Redis).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestRedis {
  url: string;
  port: number;
  /** `redis-cli`-style command, e.g. `cli('INFO', 'commandstats')`. */
  cli(...args: string[]): string;
  restart(): Promise<void>;
  stop(): Promise<void>;
  /** Stops the server process (SIGSTOP): connections stay open and nothing answers, as a hung Redis. */
  freeze(): void;
  /** Lets a frozen server go on (SIGCONT), with everything it held. */
  thaw(): void;
}

/** True when redis-server is installed (`.ci/run` installs it; `apt-get install redis-server`). */
export const redisAvailable = spawnSync('redis-server', ['--version']).status === 0;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitReady(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (
      spawnSync('redis-cli', ['-p', String(port), 'PING'])
        .stdout?.toString()
        .trim() === 'PONG'
    )
      return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server on port ${port} did not start`);
}

export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'picscan-redis-'));
  let child: ChildProcess;
  const launch = async (): Promise<void> => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: 'ignore',
    });
    await waitReady(port);
  };
  const kill = async (): Promise<void> => {
    // Already stopped (a test's own stop, then the cleanup's): a killed child has a signal, no code.
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    cli: (...args) => spawnSync('redis-cli', ['-p', String(port), ...args]).stdout.toString(),
    async restart() {
      await kill();
      await launch();
    },
    stop: kill,
    freeze: () => child.kill('SIGSTOP'),
    thaw: () => child.kill('SIGCONT'),
  };
}
