import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWebTransport, sessionToken } from '../../src-renderer/api/web-transport';

afterEach(() => vi.unstubAllGlobals());

describe('web-mode transport', () => {
  it('takes the token from the page URL and keeps it for reloads of the tab', () => {
    const store = window.sessionStorage;
    store.clear();
    expect(sessionToken({ search: '?token=abc' } as Location, store)).toBe('abc');
    expect(sessionToken({ search: '' } as Location, store)).toBe('abc');
  });

  it('posts the request with the token header and returns the envelope', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ ok: true, value: [] }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const t = createWebTransport('tok');
    await expect(t.invoke('batches:list', undefined)).resolves.toEqual({ ok: true, value: [] });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/invoke/batches:list',
      expect.objectContaining({ method: 'POST', headers: expect.objectContaining({ 'x-picscan-token': 'tok' }) }),
    );
  });

  it('turns a dead server into a plain-words error', async () => {
    vi.stubGlobal('fetch', async () => Promise.reject(new TypeError('fetch failed')));
    const r = await createWebTransport('tok').invoke('batches:list', undefined);
    expect(r).toEqual({ ok: false, error: { code: 'internal', message: expect.stringMatching(/not reachable/) } });
  });
});
