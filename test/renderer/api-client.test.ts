import { describe, expect, it } from 'vitest';
import { ApiError, invoke } from '../../src-renderer/api/client';
import { createHandlers } from '../../src-main/ipc';
import type { AppConfig } from '../../src-main/config';
import { toWireError } from '../../src-main/core';
import type { PicscanApi } from '../../src-main/shared/ipc';

// A transport that calls the real handler table in-process, the way the preload and the web-mode
// server do over their wires: parse, run, Result envelope.
function inProcessTransport(): PicscanApi {
  // jsdom has no file: URLs for src-main/config to locate package.json, so the config is literal.
  const config: AppConfig = {
    version: '1.2.3',
    dataDir: '/data',
    dbPath: '/data/picscan.db',
    modelsDir: '/models',
    modelThreads: 1,
    downloadConcurrency: 1,
    analysisConcurrency: 1,
    blockPrivateNetworks: false,
  };
  const handlers = createHandlers({ config });
  return {
    async invoke(channel, req) {
      try {
        const entry = handlers[channel];
        return { ok: true, value: await entry.run(entry.parse(req)) };
      } catch (err) {
        return { ok: false, error: toWireError(err) };
      }
    },
    on: () => () => {},
  };
}

describe('renderer api client', () => {
  it('unwraps a successful Result', async () => {
    const info = await invoke('app:info', undefined, inProcessTransport());
    expect(info.name).toBe('picscan');
    expect(info.version).toBe('1.2.3');
    expect(info.dbPath).toBe('/data/picscan.db');
  });

  it('throws ApiError with the stable code when the main side fails', async () => {
    const failing: PicscanApi = {
      invoke: async () => ({ ok: false, error: { code: 'not-found', message: 'Batch 9 does not exist.' } }),
      on: () => () => {},
    };
    await expect(invoke('app:info', undefined, failing)).rejects.toEqual(new ApiError('not-found', 'Batch 9 does not exist.'));
  });

  it('explains when no transport is available', async () => {
    await expect(invoke('app:info', undefined, undefined)).rejects.toThrow(/No connection to picscan/);
  });
});
