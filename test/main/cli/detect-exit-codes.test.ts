// `picscan detect` exit codes (README): 0 for faces or a spec-level answer (no faces), 1 when
// the image cannot be used (404, unreachable, too large; the reason on stderr), 2 for a bad option.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPicscan } from '../../helpers/cli';
import { startFixtureServer, type FixtureServer } from '../../helpers/http-server';
import { fixture } from '../../helpers/paths';
import { pngWithHeaderSize } from '../../helpers/png';

const SLOW = { timeout: 180_000 };
const detect = (...args: string[]) => runPicscan(['detect', ...args], { timeoutMs: 120_000 });
const errCodes = (stdout: string): number[] =>
  (JSON.parse(stdout) as { Errors?: Array<{ ErrCode: number }> }).Errors?.map((e) => e.ErrCode) ?? [];

let server: FixtureServer;
let closedPortUrl: string;
const dir = mkdtempSync(join(tmpdir(), 'picscan-detect-exit-'));
const huge = join(dir, 'huge.png');

beforeAll(async () => {
  server = await startFixtureServer();
  server.route('/missing.jpg', { status: 404, body: 'not found' });
  const gone = await startFixtureServer();
  closedPortUrl = gone.url('/face.jpg');
  await gone.close(); // nothing listens there any more: connection refused
  writeFileSync(huge, pngWithHeaderSize(30_000, 30_000));
});
afterAll(() => server.close());

describe('picscan detect exit codes', () => {
  it('a 404 image exits 1 and says so on stderr', SLOW, async () => {
    const r = await detect(server.url('/missing.jpg'));
    expect(errCodes(r.stdout)).toEqual([5001]);
    expect(r.stderr).toMatch(/404/);
    expect(r.code).toBe(1);
  });

  it('an unreachable host exits 1', SLOW, async () => {
    const r = await detect(closedPortUrl);
    expect(errCodes(r.stdout)).toEqual([5001]);
    expect(r.stderr).toMatch(/refused/);
    expect(r.code).toBe(1);
  });

  it('an out-of-range --min-head-scale is a bad command line: exit 2', SLOW, async () => {
    const r = await detect(fixture('grace_hopper.jpg'), '--min-head-scale', '0.6');
    expect(r.stderr).toMatch(/--min-head-scale must be from 0\.015 to 0\.5/);
    expect(r.code).toBe(2);
  });

  it('a 30 000 × 30 000 PNG is reported as too large, with the size and the limit: exit 1', SLOW, async () => {
    const r = await detect(huge);
    expect(errCodes(r.stdout)).toEqual([5000]); // the Kairos body stays the reference's
    expect(r.stderr).toMatch(/30000 × 30000 px; each side must be at most \d+ px/);
    expect(r.code).toBe(1);
  });

  it('no faces is an answer, not a failure: exit 0', SLOW, async () => {
    const r = await detect(fixture('horse_silhouette_clipart.png'));
    expect(errCodes(r.stdout)).toEqual([5002]);
    expect(r.code).toBe(0);
  });
});

describe('picscan analyze exit codes', () => {
  it('a 30 000 × 30 000 PNG exits 1 saying it is too large', SLOW, async () => {
    const r = await runPicscan(['analyze', huge, '--features', 'Color'], { timeoutMs: 120_000 });
    expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe('InvalidImageSize');
    expect(r.stderr).toMatch(/30000 × 30000 px; each side must be at most \d+ px/);
    expect(r.code).toBe(1);
  });

  it('a 404 image exits 1', SLOW, async () => {
    const r = await runPicscan(['analyze', server.url('/missing.jpg'), '--features', 'Color'], { timeoutMs: 120_000 });
    expect(r.stderr).toMatch(/404/);
    expect(r.code).toBe(1);
  });
});
