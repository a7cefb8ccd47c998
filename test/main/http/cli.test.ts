import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import { loadOrCreateTls } from '../../../src-main/services/api';
import { runPicscan } from '../../helpers/cli';
import { startFixtureServer } from '../../helpers/http-server';
import { fixture, repoRoot } from '../../helpers/paths';
import {
  DISCONNECT_AT,
  DISCONNECT_CASES,
  disconnectingCall,
  type DisconnectCase,
  LEAVE_ATTEMPTS,
  servedImage,
  timedCall,
} from './disconnect';
import { getQuery, postJson } from './harness';

const tempEnv = (): NodeJS.ProcessEnv => ({ PICSCAN_DATA_DIR: mkdtempSync(join(tmpdir(), 'picscan-api-cli-')) });

// Each case runs several CLI processes one after another (≈ 1.5 s each when the machine is idle).
const SEQUENTIAL_CLI = { timeout: 180_000 };

describe('picscan keys', SEQUENTIAL_CLI, () => {
  it('creates (key shown once), lists with balances, tops up and revokes', async () => {
    const env = tempEnv();
    const created = await runPicscan(['keys', 'create', '--name', 'ci', '--tier', 'basic', '--credit', '0.0012', '--json'], { env });
    expect(created.code).toBe(0);
    const k = JSON.parse(created.stdout) as { id: number; key: string; tier: string; balance: number; balanceMicrocents: number };
    expect(k).toMatchObject({ id: 1, tier: 'basic', balance: 0.0012, balanceMicrocents: 120_000 });
    expect(k.key).toMatch(/^psk_/);

    const human = await runPicscan(['keys', 'create', '--name', 'pro key', '--tier', 'pro'], { env });
    expect(human.stdout).toMatch(/Key 2 \(pro, balance \$50\.00\):\npsk_\S+\nStore it now/);

    await runPicscan(['keys', 'topup', '1', '0.5'], { env });
    const list = JSON.parse((await runPicscan(['keys', 'list', '--json'], { env })).stdout) as Array<Record<string, unknown>>;
    expect(list.map((x) => [x.id, x.tier, x.balanceMicrocents, x.revokedAt])).toEqual([
      [1, 'basic', 50_120_000, null],
      [2, 'pro', 5_000_000_000, null],
    ]);
    expect(JSON.stringify(list)).not.toContain(k.key);

    expect((await runPicscan(['keys', 'revoke', '2'], { env })).stdout).toMatch(/Key 2 \(pro key\) revoked/);
    const table = (await runPicscan(['keys', 'list'], { env })).stdout;
    expect(table).toMatch(/revoked\s+pro key/);
    expect(table).toMatch(/\$0\.5012/);
  });

  it('refuses the free tier and bad input with exit code 2 and a clear message', async () => {
    const env = tempEnv();
    const free = await runPicscan(['keys', 'create', '--name', 'x', '--tier', 'free'], { env });
    expect(free.code).toBe(2);
    expect(free.stderr).toMatch(/free tier exists but is not available/);
    expect((await runPicscan(['keys', 'create', '--name', 'x', '--tier', 'gold'], { env })).code).toBe(2);
    expect((await runPicscan(['keys', 'create', '--name', 'x', '--tier', 'basic', '--credit', '-3'], { env })).code).toBe(2);
    const missing = await runPicscan(['keys', 'revoke', '9'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No API key with id 9/);
  });

  it('takes ids in decimal digits only, says "more than $0" for an empty top-up, and lists a name with control characters on one line', async () => {
    const env = tempEnv();
    await runPicscan(['keys', 'create', '--name', 'line\nbreak\u001b[2Jclear', '--tier', 'basic'], { env });
    // Number() reads each of these as 1; none names key 1, so none revokes it.
    for (const id of ['0x1', '1e0', '1.0', ' 1', '+1']) {
      const r = await runPicscan(['keys', 'revoke', id], { env });
      expect(r.code, id).toBe(2);
      expect(r.stderr).toBe(`picscan: "${id}" is not a key id (a positive integer; see picscan keys list).\n`);
    }
    const zero = await runPicscan(['keys', 'topup', '1', '0'], { env });
    expect(zero.stderr).toBe('picscan: A top-up must be more than $0.\n');
    expect(zero.code).toBe(2);
    const table = (await runPicscan(['keys', 'list'], { env })).stdout.trim().split('\n');
    expect(table).toHaveLength(2); // the header and the key's one line
    expect(table[1]).toMatch(/active +line\ufffdbreak\ufffd\[2Jclear$/);
    expect(table[1]).not.toContain('\u001b');
    const batch = await runPicscan(['batches', '--db', join(env.PICSCAN_DATA_DIR!, 'picscan.db')], { env });
    expect(batch.code).toBe(0);
    expect((await runPicscan(['cancel', '0x1'], { env })).stderr).toBe('picscan: "0x1" is not a batch id (see picscan batches).\n');
  });
});

describe('picscan keys: money limits', SEQUENTIAL_CLI, () => {
  it('refuses amounts over $10,000,000 with exit code 2 and a message naming the limit, leaving balances unchanged', async () => {
    const env = tempEnv();
    const limit = /over the limit: a key's balance may hold at most \$10,000,000/;
    for (const credit of ['10000000.01', '999999999']) {
      const r = await runPicscan(['keys', 'create', '--name', 'x', '--tier', 'pro', '--credit', credit], { env });
      expect([r.code, r.stderr], credit).toEqual([2, expect.stringMatching(limit)]);
    }
    const full = await runPicscan(['keys', 'create', '--name', 'full', '--tier', 'pro', '--credit', '9999999.99', '--json'], { env });
    expect(JSON.parse(full.stdout)).toMatchObject({ id: 1, balanceMicrocents: 999_999_999_000_000 });
    const huge = await runPicscan(['keys', 'topup', '1', '99999999'], { env });
    expect([huge.code, huge.stderr]).toEqual([2, expect.stringMatching(limit)]);
    const over = await runPicscan(['keys', 'topup', '1', '0.02'], { env });
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(/key 1 holds \$9999999\.99, and adding \$0\.02 would take it over the limit of \$10,000,000 per key/);
    const zero = await runPicscan(['keys', 'topup', '1', '0'], { env });
    expect([zero.code, zero.stderr]).toEqual([2, expect.stringMatching(/top-up must be more than \$0/)]);
    const list = JSON.parse((await runPicscan(['keys', 'list', '--json'], { env })).stdout) as Array<{ balanceMicrocents: number }>;
    expect(list.map((k) => k.balanceMicrocents)).toEqual([999_999_999_000_000]);
    const exact = await runPicscan(['keys', 'topup', '1', '0.01'], { env });
    expect([exact.code, exact.stdout]).toEqual([0, 'Key 1 balance: $10000000.00.\n']);
  }, 120_000);
});

function startServe(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcessWithoutNullStreams; url: string; stderr: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'picscan.js'), 'serve', '--port', '0', ...args], {
      env: { ...process.env, ...env },
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]!, stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

const exitOf = (child: ChildProcessWithoutNullStreams): Promise<number | null> => new Promise((r) => child.on('exit', (code) => r(code)));

describe('picscan serve', SEQUENTIAL_CLI, () => {
  it('serves HTTPS with a certificate generated into the data folder, and stops cleanly on SIGTERM', async () => {
    const env = tempEnv();
    const k = JSON.parse((await runPicscan(['keys', 'create', '--name', 's', '--tier', 'basic', '--json'], { env })).stdout) as {
      key: string;
    };
    const { child, url } = await startServe([], env);
    const exited = exitOf(child);
    try {
      expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const certPath = join(env.PICSCAN_DATA_DIR!, 'tls', 'server-cert.pem');
      expect(existsSync(certPath)).toBe(true);
      const agent = new Agent({ connect: { ca: readFileSync(certPath, 'utf8') } });
      const noKey = await postJson(`${url}/ai/vision/analyze`, { image: 'https://example.com/a.jpg' }, undefined, agent);
      expect(noKey.status).toBe(401);
      // SSRF guard is on by default: a loopback image URL is refused before any model runs.
      const ssrf = await getQuery(`${url}/ai/faces/detect`, { image: 'http://127.0.0.1:9/a.jpg', key: k.key }, agent);
      expect(ssrf.json).toMatchObject({ Errors: [{ ErrCode: 5001 }] });
      await agent.close();
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('serves plain HTTP on loopback with --http, and refuses --http elsewhere', async () => {
    const env = tempEnv();
    const { child, url } = await startServe(['--http', '--db', join(env.PICSCAN_DATA_DIR!, 'other.db')], env);
    const exited = exitOf(child);
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await getQuery(`${url}/ai/vision/nope`, {});
      expect(res.status).toBe(404);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(existsSync(join(env.PICSCAN_DATA_DIR!, 'other.db'))).toBe(true);

    const refused = await runPicscan(['serve', '--http', '--host', '0.0.0.0', '--port', '0'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--http is allowed only on loopback/);
  });

  it('takes a port in decimal digits only: an empty, spaced, hex or exponent port is refused, not read as another port', async () => {
    // Number('') is 0 (any free port), Number('0x1F90') 8080, Number('8e3') 8000.
    const env = tempEnv();
    for (const port of ['', ' ', ' 8443', '0x1F90', '8e3', '+80', '65536']) {
      const refused = await runPicscan(['serve', '--http', '--port', port], { env });
      expect(refused.code, JSON.stringify(port)).toBe(2);
      expect(refused.stderr, JSON.stringify(port)).toMatch(/is not a port/);
    }
  });

  it('refuses a --cert or --key that is missing or not PEM, or a key of another certificate, with one line and exit 2', async () => {
    const env = tempEnv();
    const dir = env.PICSCAN_DATA_DIR!;
    const bad = join(dir, 'bad.pem');
    writeFileSync(bad, 'not a pem');
    const good = await loadOrCreateTls({ dataDir: join(dir, 'own') });
    const otherKey = join(dir, 'other-key.pem');
    writeFileSync(otherKey, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const cases: Array<[string, string, string]> = [
      [bad, bad, `picscan: The certificate ${bad} is not a valid PEM certificate.\n`],
      [good.certPath, bad, `picscan: The key ${bad} is not a valid PEM private key (unencrypted).\n`],
      [good.certPath, otherKey, `picscan: The key ${otherKey} does not belong to the certificate ${good.certPath}.\n`],
      [
        join(dir, 'missing.pem'),
        good.keyPath,
        `picscan: Cannot read ${join(dir, 'missing.pem')}: ENOENT: no such file or directory, open '${join(dir, 'missing.pem')}'\n`,
      ],
    ];
    for (const [cert, key, message] of cases) {
      const r = await runPicscan(['serve', '--port', '0', '--cert', cert, '--key', key], { env });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(message);
    }
  });

  it('finishes a call in flight on SIGTERM (charged, answered), then exits 0', async () => {
    const env = tempEnv();
    const dbFile = join(env.PICSCAN_DATA_DIR!, 'picscan.db');
    const k = JSON.parse((await runPicscan(['keys', 'create', '--name', 'g', '--tier', 'basic', '--json'], { env })).stdout) as {
      key: string;
    };
    const images = await startFixtureServer();
    images.route('/slow.jpg', { file: fixture('cat_chelsea.jpg'), headers: { 'content-type': 'image/jpeg' }, delayMs: 1_500 });
    const { child, url } = await startServe(['--http', '--allow-private-networks'], env);
    const exited = exitOf(child);
    try {
      const inFlight = postJson(`${url}/ai/vision/analyze`, { image: images.url('/slow.jpg'), features: 'Color' }, k.key);
      await new Promise((r) => setTimeout(r, 500)); // the image is still downloading
      child.kill('SIGTERM');
      const res = await inFlight;
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ status: true, data: { color: {} } });
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 20_000))]);
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await images.close();
    }
    const list = JSON.parse((await runPicscan(['keys', 'list', '--json', '--db', dbFile], { env })).stdout) as Array<{
      transactions: number;
    }>;
    expect(list[0]!.transactions).toBe(1);
  });

  it('stays up when clients disconnect mid-analysis, and charges only the calls it answered', async () => {
    const env = tempEnv();
    const dbFile = join(env.PICSCAN_DATA_DIR!, 'picscan.db');
    const k = JSON.parse((await runPicscan(['keys', 'create', '--name', 'd', '--tier', 'pro', '--json'], { env })).stdout) as {
      key: string;
      balanceMicrocents: number;
    };
    const images = await startFixtureServer();
    const served = servedImage(images, '/family.jpg', fixture('family_six_faces.jpg'));
    const image = images.url('/family.jpg');
    const { child, url, stderr } = await startServe(['--http', '--allow-private-networks'], env);
    const exited = exitOf(child);
    let answered = 0;
    let aborted = 0;
    try {
      // Load the models, then time each operation warm (the fastest of three); these calls are answered.
      const timed = async (c: DisconnectCase): Promise<number> => {
        await timedCall(url, c, image, k.key, served);
        answered++;
        let fastest = Infinity;
        for (let i = 0; i < 3; i++) {
          fastest = Math.min(fastest, (await timedCall(url, c, image, k.key, served)).analysisMs);
          answered++;
        }
        return fastest;
      };
      const warmMs = { detect: await timed(DISCONNECT_CASES[0]), analyze: await timed(DISCONNECT_CASES[2]) };
      for (const c of DISCONNECT_CASES) {
        const op = c.path === '/ai/faces/detect' ? 'detect' : 'analyze';
        for (const fraction of DISCONNECT_AT) {
          for (let attempt = 0; attempt < LEAVE_ATTEMPTS; attempt++) {
            const ended = await disconnectingCall(url, c, image, k.key, served, fraction * warmMs[op]);
            if (ended === 'aborted') {
              aborted++;
              break;
            }
            // The machine got quieter than when the calls were timed (other test files finished), so
            // the reply beat the disconnect: it was delivered and is charged. Re-time and leave again.
            expect(ended).toBe(200);
            answered++;
            warmMs[op] = Math.min(warmMs[op], (await timedCall(url, c, image, k.key, served)).analysisMs);
            answered++;
          }
        }
      }
      expect(aborted).toBeGreaterThanOrEqual(DISCONNECT_CASES.length * (DISCONNECT_AT.length - 1));
      const next = await timedCall(url, DISCONNECT_CASES[0], image, k.key, served);
      expect(next.status).toBe(200);
      answered++;
      expect(child.exitCode).toBeNull();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stderr()).not.toMatch(/cancelled|AppError|Unhandled/i);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await images.close();
    }
    const list = JSON.parse((await runPicscan(['keys', 'list', '--json', '--db', dbFile], { env })).stdout) as Array<{
      transactions: number;
      balanceMicrocents: number;
    }>;
    // Only the answered calls are charged, at the pro price (0.002 ¢ = 2 000 µ¢); no hold is left.
    expect(list[0]).toMatchObject({ transactions: answered, balanceMicrocents: k.balanceMicrocents - answered * 2_000 });
  }, 240_000);
});
