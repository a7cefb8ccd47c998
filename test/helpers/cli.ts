import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './paths';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from the start to the first stderr output (undefined if none). */
  firstStderrMs?: number;
  /** Milliseconds from the start to the exit. */
  elapsedMs: number;
}

/** Options of `runPicscan` / `startPicscan`. */
export interface CliOptions {
  env?: NodeJS.ProcessEnv;
  /** Standard input (text or bytes); a child that stops reading it early is no error. */
  input?: string | Buffer;
  timeoutMs?: number;
  /** Working directory of the child; default the repository. */
  cwd?: string;
  /** Run as this user (needs root): e.g. `nobody`, to test permissions while the tests run as root. */
  user?: { uid: number; gid: number };
}

/** A running `picscan` child process and the promise of its end. */
export interface CliProcess {
  child: ChildProcess;
  /** Everything written to stderr so far. */
  stderrSoFar(): string;
  /** Everything written to stdout so far. */
  stdoutSoFar(): string;
  done: Promise<CliRun>;
}

/** Starts the real `picscan` command (bin/picscan.js) in a child process under plain Node. */
export function startPicscan(args: string[], opts: CliOptions = {}): CliProcess {
  const startedMs = Date.now();
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'picscan.js'), ...args], {
    cwd: opts.cwd ?? repoRoot,
    env: { ...process.env, ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(opts.user ?? {}),
  });
  let stdout = '';
  let stderr = '';
  let firstStderrMs: number | undefined;
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => {
    firstStderrMs ??= Date.now() - startedMs;
    stderr += d.toString();
  });
  const done = new Promise<CliRun>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, firstStderrMs, elapsedMs: Date.now() - startedMs });
    });
  });
  child.stdin!.on('error', () => undefined); // EPIPE when the child exits before reading it all
  child.stdin!.end(opts.input ?? '');
  return { child, stderrSoFar: () => stderr, stdoutSoFar: () => stdout, done };
}

/** Runs the real `picscan` command (bin/picscan.js) in a child process under plain Node. */
export function runPicscan(args: string[], opts: CliOptions = {}): Promise<CliRun> {
  return startPicscan(args, opts).done;
}
