// API server load bench (docs/benchmarks.md, "API server"): `npm run bench:api`. A real
// `serve`-equivalent server (HTTPS, real models, api-mode intake) runs in a child process; this
// process serves the fixture image on loopback and drives autocannon: 50 connections for 60 s
// of POST /ai/vision/analyze, then 10 s of refused (401) calls for the transport's own cost.
// Env: BENCH_API_SECONDS, BENCH_API_CONNECTIONS, BENCH_API_IMAGE, BENCH_API_TRANSPORT_SECONDS.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src-main/config';
import { createHttpServer, serverUrl } from '../../src-main/http';
import { createBackend } from '../../src-main/app';
import { createApiServices, loadOrCreateTls } from '../../src-main/services/api';
import { startFixtureServer } from '../helpers/http-server';
import { fixture } from '../helpers/paths';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  duration: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 50);
const IMAGE = process.env.BENCH_API_IMAGE ?? 'cat_chelsea.jpg';
const TRANSPORT_SECONDS = Number(process.env.BENCH_API_TRANSPORT_SECONDS ?? 10);

/** Child role: the server, with the spec's rate bounds lifted so the bench measures throughput. */
async function serveChild(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'picscan-bench-api-'));
  const config = loadConfig({ dataDir }, {});
  const backend = createBackend(config, { apiBlockPrivateNetworks: false });
  const db = backend.db();
  const operations = backend.operations();
  const unlimited = { minute: 1e9, day: 1e9, month: 1e9 };
  const api = createApiServices({ db, operations, limits: () => unlimited });
  const key = api.keys.create({ name: 'bench', tier: 'pro', creditMicrocents: 1e12 });
  const tls = await loadOrCreateTls({ dataDir });
  const app = await createHttpServer({ api, tls });
  await app.listen({ host: '127.0.0.1', port: 0 });
  process.stdout.write(`${JSON.stringify({ url: serverUrl(app, true), key: key.key })}\n`);
  process.once('SIGTERM', () => {
    // After close: calls cut off by the end of the run are settled (refunded) before counting.
    void app.close().then(async () => {
      const k = api.keys.get(key.id);
      process.stdout.write(`${JSON.stringify({ charged: k.transactions, balanceDropMicrocents: 1e12 - k.balanceMicrocents })}\n`);
      await backend.close();
      process.exit(0);
    });
  });
}

async function main(): Promise<void> {
  const images = await startFixtureServer();
  images.route('/img.jpg', { file: fixture(IMAGE), headers: { 'content-type': 'image/jpeg' } });
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve-child'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const { url, key } = JSON.parse((await lines.next()).value as string) as { url: string; key: string };
  const target = {
    url: `${url}/ai/vision/analyze`,
    method: 'POST',
    headers: { key, 'content-type': 'application/json' },
    body: JSON.stringify({ image: images.url('/img.jpg') }),
    timeout: 120,
  };
  // Warm-up: load every model once so the first seconds do not measure session creation.
  await autocannon({ ...target, connections: 2, amount: 6 });
  const r = await autocannon({ ...target, connections: CONNECTIONS, duration: SECONDS });
  // Transport only: the same requests with an unknown key, refused (401) before any model runs —
  // the cost of TLS, Fastify, parsing and the key lookup.
  const t = await autocannon({
    ...target,
    headers: { ...target.headers, key: 'psk_unknown' },
    connections: CONNECTIONS,
    duration: TRANSPORT_SECONDS,
  });
  child.kill('SIGTERM');
  const tally = JSON.parse((await lines.next()).value as string) as { charged: number; balanceDropMicrocents: number };
  await images.close();

  const cpu = `${cpus()[0]?.model ?? 'cpu'} × ${availableParallelism()}, load avg ${loadavg()[0]!.toFixed(1)}`;
  process.stdout.write(
    [
      `API bench: POST /ai/vision/analyze over HTTPS, ${CONNECTIONS} connections, ${SECONDS} s, image ${IMAGE} from loopback (${cpu}, Node ${process.version})`,
      `requests/s ${r.requests.average.toFixed(1)} · latency p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms`,
      `responses 2xx ${r['2xx']}, non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}`,
      `charged transactions ${tally.charged} incl. 6 warm-up and calls finished after the run stopped (balance drop ${tally.balanceDropMicrocents} µ¢ = ${tally.charged} × 2 000 µ¢: ${tally.balanceDropMicrocents === tally.charged * 2000 ? 'ok' : 'MISMATCH'})`,
      `transport only (401, ${TRANSPORT_SECONDS} s): requests/s ${t.requests.average.toFixed(0)} · p50 ${t.latency.p50} ms, p99 ${t.latency.p99} ms · 401s ${t.non2xx}, 2xx ${t['2xx']}, errors ${t.errors + t.timeouts}`,
      `| ${CONNECTIONS} | ${SECONDS} s | ${r.requests.average.toFixed(1)} | ${r.latency.p50} | ${r.latency.p99} | ${r['2xx']} | ${r.non2xx} | ${r.errors + r.timeouts} |`,
    ].join('\n') + '\n',
  );
}

if (process.argv.includes('--serve-child')) await serveChild();
else await main();
