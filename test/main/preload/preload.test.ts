import { describe, expect, it, vi } from 'vitest';
import type { PicscanApi } from '../../../src-main/shared';

// The preload under a stand-in `electron`: what it exposes, and that it checks channel names.
const rec = vi.hoisted(() => ({
  exposed: {} as Record<string, unknown>,
  invoke: vi.fn(async (..._args: unknown[]) => ({ ok: true, value: 'pong' })),
  on: vi.fn(),
  removeListener: vi.fn(),
}));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => void (rec.exposed[key] = api) },
  ipcRenderer: { invoke: rec.invoke, on: rec.on, removeListener: rec.removeListener },
}));

await import('../../../src-main/preload/index');
const api = rec.exposed.api as PicscanApi;

describe('preload', () => {
  it('exposes only window.api with invoke and on', () => {
    expect(Object.keys(rec.exposed)).toEqual(['api']);
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
  });

  it('forwards contract channels and refuses any other name', async () => {
    await expect(api.invoke('batches:list', undefined)).resolves.toEqual({ ok: true, value: 'pong' });
    expect(rec.invoke).toHaveBeenCalledWith('batches:list', undefined);
    await expect(api.invoke('fs:read' as never, { path: '/etc/passwd' } as never)).rejects.toThrow(/Unknown channel/);
    expect(rec.invoke).toHaveBeenCalledTimes(1);
  });

  it('subscribes to contract events only, and unsubscribes', () => {
    const off = api.on('batches:progress', () => {});
    expect(rec.on).toHaveBeenCalledWith('batches:progress', expect.any(Function));
    off();
    expect(rec.removeListener).toHaveBeenCalledWith('batches:progress', rec.on.mock.calls[0]![1]);
    expect(() => api.on('ipc:anything' as never, () => {})).toThrow(/Unknown event/);
  });
});
