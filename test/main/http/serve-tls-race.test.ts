// Several `picscan serve` started at once on a new data folder (the app and a terminal, a service
// manager starting two): real child processes, real HTTPS, the certificate file as a client trusts it.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startPicscan } from '../../helpers/cli';
import { until } from '../../helpers/until';

const SERVERS = 3;

describe('picscan serve started several times at once on a new data folder', () => {
  it('every server presents the one certificate written to the data folder; one of them generated it', { timeout: 180_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'picscan-tls-race-'));
    const env = { PICSCAN_DATA_DIR: dir };
    const servers = Array.from({ length: SERVERS }, () => startPicscan(['serve', '--port', '0'], { env, timeoutMs: 150_000 }));
    try {
      await until('every server listening', () => servers.every((s) => /listening on https:/.test(s.stdoutSoFar())));
      const agent = new Agent({ connect: { ca: readFileSync(join(dir, 'tls', 'server-cert.pem'), 'utf8') } });
      try {
        for (const s of servers) {
          const url = /listening on (\S+)/.exec(s.stdoutSoFar())![1]!;
          const res = await request(`${url}/openapi.json`, { dispatcher: agent });
          await res.body.dump();
          expect(res.statusCode).toBe(200);
        }
      } finally {
        await agent.close();
      }
      expect(servers.filter((s) => s.stderrSoFar().includes('generated now'))).toHaveLength(1);
    } finally {
      for (const s of servers) s.child.kill('SIGTERM');
      await Promise.all(servers.map((s) => s.done));
    }
  });
});
