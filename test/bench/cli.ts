// The `picscan` command as a user runs it: `node bin/picscan.js …` in a child process, this
// checkout and, with `--baseline <checkout>`, another one (an older build: its own bin/, sources
// and models) in turn, `--rounds` times (default 2). Per run: wall time and peak RSS (VmHWM of the
// child, polled from /proc; so Linux only) of
// - `picscan --version` (start-up);
// - `picscan analyze` of one fixture photo (start-up, model loading, one analysis);
// - `picscan serve --http`, idle (VmRSS once it listens and has settled);
// - `picscan batch` of BENCH_CLI_UNIQUE (default 120) byte-unique JPEGs from a loopback server
//   (also its CPU seconds, all threads, from /proc: steadier than wall time on a busy machine),
//   with glibc's malloc defaults and with the setting `npm start` gives its processes
//   (bin/process-env.js); the fixture photos as they are, or with BENCH_CLI_LARGE=1 enlarged to
//   7.7–12.2 MP (test/helpers/large-photos.ts), as phone photos come.
// Run: npm run bench -- cli [--baseline <checkout>] [--rounds N].
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { launchEnv } from '../../bin/process-env.js';
import { startFixtureServer } from '../helpers/http-server';
import { fixture, fixturesDir, repoRoot } from '../helpers/paths';
import { enlargedJpeg, LARGE_PHOTOS } from '../helpers/large-photos';
import { uniqueJpeg } from '../helpers/unique-jpeg';

const { values } = parseArgs({ options: { baseline: { type: 'string' }, rounds: { type: 'string', default: '2' } } });
const ROUNDS = Math.max(1, Number(values.rounds));
const UNIQUE = Number(process.env.BENCH_CLI_UNIQUE ?? 120);
const LARGE = process.env.BENCH_CLI_LARGE === '1';
/** How often the child's peak RSS is read (ms). */
const POLL_MS = 50;
/** How long `serve` idles after it listens before its RSS is read (ms). */
const SERVE_SETTLE_MS = 5_000;

if (process.platform !== 'linux') {
  console.log('bench cli: reads /proc for the peak RSS of a child process; Linux only, skipped');
  process.exit(0);
}

interface Run {
  wallMs: number;
  /** CPU seconds of the child, read every POLL_MS (the last poll before it exited). */
  cpuS: number;
  stdout: string;
  peakMb: number;
  code: number | null;
  stderr: string;
}

/** The child's kB field `field` (VmHWM, VmRSS) from /proc, or 0 once it has gone. */
function procKb(pid: number, field: string): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux build we run). */
const USER_HZ = 100;

/**
 * CPU seconds (user + system, every thread) the child used so far, from /proc/<pid>/stat; 0 once
 * it has gone. Less sensitive to other load on the machine than wall time.
 */
function procCpuS(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // After "pid (comm) ", utime and stime are the 12th and 13th fields (stat(5) fields 14 and 15).
    return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
  } catch {
    return 0;
  }
}

/**
 * Runs `node <checkout>/bin/picscan.js args` to its end; with `untilReady`, stops it once that text
 * appeared on its output and SERVE_SETTLE_MS passed, and reports its RSS then instead of the peak.
 */
function picscan(checkout: string, args: string[], env: NodeJS.ProcessEnv, untilReady?: RegExp): Promise<Run> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(checkout, 'bin', 'picscan.js'), ...args], {
    cwd: checkout,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let peakKb = 0;
  let idleKb = 0;
  let output = '';
  let stdout = '';
  let stderr = '';
  let cpuS = 0;
  const poll = setInterval(() => {
    peakKb = Math.max(peakKb, procKb(child.pid!, 'VmHWM'));
    cpuS = Math.max(cpuS, procCpuS(child.pid!));
  }, POLL_MS);
  const onOutput = (d: Buffer): void => {
    output += d.toString();
    if (untilReady && untilReady.test(output) && !idleKb) {
      idleKb = -1;
      setTimeout(() => {
        idleKb = procKb(child.pid!, 'VmRSS');
        child.kill('SIGTERM');
      }, SERVE_SETTLE_MS);
    }
  };
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    onOutput(d);
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    onOutput(d);
  });
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => {
      clearInterval(poll);
      const kb = untilReady ? idleKb : peakKb;
      done({ wallMs: performance.now() - started, cpuS, stdout, peakMb: Math.round(kb / 1024), code: untilReady ? 0 : code, stderr });
    });
  });
}

const checkouts = [repoRoot, ...(values.baseline ? [resolve(values.baseline)] : [])];
const label = (c: string): string => (c === repoRoot ? 'this checkout' : `baseline ${c}`);
const dir = mkdtempSync(join(tmpdir(), 'picscan-bench-cli-'));
const server = await startFixtureServer();
try {
  const sources = LARGE
    ? await Promise.all(LARGE_PHOTOS.map(async ([file, w, h]) => [file, await enlargedJpeg(file, w, h)] as const))
    : (JSON.parse(readFileSync(join(fixturesDir, 'manifest.json'), 'utf8')) as Array<{ file: string }>)
        .map((m) => m.file)
        .filter((f) => f.endsWith('.jpg'))
        .map((f) => [f, readFileSync(fixture(f))] as const);
  const files = sources.map(([f]) => f);
  const urls: string[] = [];
  for (let i = 0; i < UNIQUE; i++) {
    const [file, bytes] = sources[i % sources.length]!;
    server.route(`/u/${i}/${file}`, { body: uniqueJpeg(bytes, i), headers: { 'content-type': 'image/jpeg' } });
    urls.push(server.url(`/u/${i}/${file}`));
  }
  const list = join(dir, 'urls.txt');
  writeFileSync(list, `${urls.join('\n')}\n`);
  const defaults = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'MALLOC_ARENA_MAX'));
  const capped = launchEnv(defaults);
  console.log(
    `load average before: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(
        ' ',
      )}; ${UNIQUE} byte-unique JPEGs from ${files.length} fixture photos${LARGE ? ' enlarged to 7.7–12.2 MP' : ''}; MALLOC_ARENA_MAX of "npm start": ${capped.MALLOC_ARENA_MAX ?? 'unset'}`,
  );

  let runId = 0;
  const fresh = (): NodeJS.ProcessEnv => {
    const data = join(dir, `run-${++runId}`);
    return { PICSCAN_DATA_DIR: data };
  };
  const report = (what: string, c: string, r: Run, extra = ''): void => {
    if (r.code !== 0) throw new Error(`${label(c)}: picscan ${what} exited ${r.code}:\n${r.stderr.slice(-2000)}`);
    console.log(`${label(c)} | ${what} | ${(r.wallMs / 1000).toFixed(2)} s | ${r.peakMb} MB${extra}`);
  };
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`round ${round} (load ${loadavg()[0]!.toFixed(1)})`);
    for (const c of checkouts) {
      report('--version (peak RSS)', c, await picscan(c, ['--version'], { ...defaults, ...fresh() }));
      const photo = fixture('cat_chelsea.jpg');
      report('analyze cat_chelsea.jpg (peak RSS)', c, await picscan(c, ['analyze', photo], { ...defaults, ...fresh() }));
      const serve = await picscan(c, ['serve', '--http', '--port', '0'], { ...defaults, ...fresh() }, /listening on/);
      report(`serve, idle ${SERVE_SETTLE_MS / 1000} s after listening (RSS)`, c, serve);
      for (const [name, env] of [
        ['glibc defaults', defaults],
        ['MALLOC_ARENA_MAX as npm start', capped],
      ] as const) {
        const e = { ...env, ...fresh() };
        const r = await picscan(c, ['batch', list, '--db', join(e.PICSCAN_DATA_DIR!, 'bench.db'), '--json'], e);
        const done = (JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as { counts?: { done?: number } }).counts?.done;
        if (done !== UNIQUE) throw new Error(`${label(c)}: picscan batch analysed ${done} of ${UNIQUE} images:\n${r.stderr.slice(-2000)}`);
        report(
          `batch ${UNIQUE} unique, ${name} (peak RSS)`,
          c,
          r,
          ` | ${(UNIQUE / (r.wallMs / 1000)).toFixed(1)} images/s incl. start-up | CPU ${r.cpuS.toFixed(1)} s`,
        );
      }
    }
  }
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
