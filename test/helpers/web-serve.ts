import { startPicscan, type CliOptions, type CliProcess, type CliRun } from './cli';
import { until } from './until';

/** A real `picscan serve --http --port 0` child process, with its web-mode bridge reachable. */
export interface ServeProcess {
  process: CliProcess;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** POST /api/invoke/<channel> with the session token: the bridge's Result envelope. */
  invoke(channel: string, req?: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }>;
  /** GET a bridge path (e.g. `/api/export?…`) with the session token: status and body text. */
  get(path: string): Promise<{ status: number; body: string }>;
  /** SIGTERM (the server has printed its address, so it handles it) and the end of the process. */
  stop(): Promise<CliRun>;
}

/**
 * Starts `picscan serve --http --port 0 --db <db>` and waits (generously: a loaded machine can take
 * 30 s) for the web-mode address it prints, which carries the session token.
 */
export async function startServe(db: string, opts: CliOptions = {}): Promise<ServeProcess> {
  const child = startPicscan(['serve', '--http', '--port', '0', '--db', db], { timeoutMs: 300_000, ...opts });
  const exited = child.done.then((run) => {
    throw new Error(`picscan serve exited (${run.code}) before it listened: ${run.stderr}`);
  });
  exited.catch(() => undefined);
  const address = await Promise.race([
    until(
      'picscan serve printing its web-mode address',
      () => /picscan UI \(web mode\): (\S+)\/app\/\?token=(\S+)/.exec(child.stdoutSoFar()) ?? undefined,
    ),
    exited,
  ]);
  const [, origin, token] = address;
  return {
    process: child,
    origin: origin!,
    async invoke(channel, req) {
      const res = await fetch(`${origin}/api/invoke/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-picscan-token': token! },
        body: JSON.stringify({ req }),
      });
      return (await res.json()) as Awaited<ReturnType<ServeProcess['invoke']>>;
    },
    async get(path) {
      const res = await fetch(`${origin}${path}`, { headers: { 'x-picscan-token': token! } });
      return { status: res.status, body: await res.text() };
    },
    stop() {
      child.child.kill('SIGTERM');
      return child.done;
    },
  };
}
