import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWebTransport, sessionToken } from '../../src-renderer/api/web-transport';
import { NewBatchState } from '../../src-renderer/state/new-batch.svelte';

/** A fetch answering every call with this status and body (JSON unless it is a string). */
const answer = (status: number, body: unknown, type = 'application/json') =>
  vi.fn(async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': type } }));

/** What web mode's server says about a URL list over its body limit (test/main/http/bridge/body-limit.test.ts). */
const LIST_TOO_LARGE =
  'The URL list is too large for web mode, which sends it in one request of at most 256 MiB (≈ 268 MB). Split it into smaller lists and start a batch for each, or start it with `picscan batch <file>` or in the desktop app, which have no such limit.';

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

  it("shows the server's message for a list over the body limit (HTTP 413), in the New batch form too", async () => {
    vi.stubGlobal('fetch', answer(413, { ok: false, error: { code: 'payload-too-large', message: LIST_TOO_LARGE } }));
    const t = createWebTransport('tok');
    await expect(t.invoke('batches:list', undefined)).resolves.toEqual({
      ok: false,
      error: { code: 'payload-too-large', message: LIST_TOO_LARGE },
    });
    const form = new NewBatchState(() => t);
    form.text = 'https://a.example/1.jpg';
    expect(await form.submit()).toBeNull();
    expect(form.error).toBe(`The batch was not created: ${LIST_TOO_LARGE}`);
  });

  it("reads the API server's error body (no Result envelope) as a failure with a stable code and its message", async () => {
    const t = createWebTransport('tok');
    const tooLarge = 'The request body is too large: send only the JSON parameters; the image goes by URL in `image`.';
    vi.stubGlobal('fetch', answer(413, { error: { code: 'PayloadTooLarge', message: tooLarge }, trace_id: 't' }));
    await expect(t.invoke('batches:list', undefined)).resolves.toEqual({
      ok: false,
      error: { code: 'payload-too-large', message: tooLarge },
    });
    vi.stubGlobal('fetch', answer(400, { error: { code: 'BadArgument', message: 'The body is not valid JSON.' }, trace_id: 't' }));
    await expect(t.invoke('batches:list', undefined)).resolves.toEqual({
      ok: false,
      error: { code: 'invalid-parameter', message: 'The body is not valid JSON.' },
    });
  });

  it('says what an answer without a result means: the status, and for 413 that the request was too large', async () => {
    const t = createWebTransport('tok');
    vi.stubGlobal('fetch', answer(413, '<html>413 Request Entity Too Large</html>', 'text/html'));
    await expect(t.invoke('batches:list', undefined)).resolves.toEqual({
      ok: false,
      error: { code: 'payload-too-large', message: expect.stringMatching(/too large.*HTTP 413/) },
    });
    vi.stubGlobal('fetch', answer(502, '', 'text/plain'));
    await expect(t.invoke('batches:list', undefined)).resolves.toEqual({
      ok: false,
      error: { code: 'internal', message: 'picscan answered HTTP 502 without a result.' },
    });
    vi.stubGlobal('fetch', answer(200, { unexpected: true }));
    await expect(t.invoke('batches:list', undefined)).resolves.toEqual({
      ok: false,
      error: { code: 'internal', message: 'picscan answered HTTP 200 without a result.' },
    });
  });
});
