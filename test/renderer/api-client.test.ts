import { describe, expect, it } from 'vitest';
import { ApiError, invoke } from '../../src-renderer/api/client';
import type { PicscanApi } from '../../src-main/shared';
import { inProcessTransport } from './helpers';

describe('renderer api client', () => {
  it('unwraps a successful Result', async () => {
    const info = await invoke('app:info', undefined, inProcessTransport());
    expect(info.name).toBe('picscan');
    expect(info.version).toBe('9.9.9');
    expect(info.dbPath).toBe('/data/picscan.db');
  });

  it('throws ApiError with the stable code when the main side fails', async () => {
    const failing: PicscanApi = {
      invoke: async () => ({ ok: false, error: { code: 'not-found', message: 'Batch 9 does not exist.' } }),
      on: () => () => {},
    };
    await expect(invoke('app:info', undefined, failing)).rejects.toEqual(new ApiError('not-found', 'Batch 9 does not exist.'));
  });

  it('passes input errors of the handler table through as invalid-input', async () => {
    await expect(invoke('batches:pause', { batchId: 0 }, inProcessTransport())).rejects.toMatchObject({ code: 'invalid-input' });
  });

  it('explains when no transport is available', async () => {
    await expect(invoke('app:info', undefined, undefined)).rejects.toThrow(/No connection to picscan/);
  });
});
