import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../src-main/config';
import { silentLogger } from '../../../../src-main/core';
import { createServerControl } from '../../../../src-main/http/bridge';
import { createBackend } from '../../../../src-main/app';

describe('API server control (Settings → Local API server)', () => {
  it('starts, reports its address, stops, and explains a port in use', async () => {
    const config = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-srv-')) }, {});
    const backend = createBackend(config);
    const control = createServerControl({ config, api: () => backend.api(), logger: silentLogger, plainHttp: true });
    expect(control.status()).toEqual({ running: false, url: null, error: null });

    const up = await control.apply({ enabled: true, host: '127.0.0.1', port: 0 });
    expect(up.running).toBe(true);
    expect(up.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${up.url}/ai/vision/analyze`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401); // the real API: no key

    expect(await control.apply({ enabled: false, host: '127.0.0.1', port: 0 })).toEqual({ running: false, url: null, error: null });

    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const busy = await control.apply({ enabled: true, host: '127.0.0.1', port });
    expect(busy.running).toBe(false);
    expect(busy.error).toMatch(new RegExp(`could not start on 127.0.0.1:${port}: .*EADDRINUSE`));
    blocker.close();
    await control.close();
    await backend.close();
  });
});
