import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { createApiHandlers } from '../../../src-main/http/bridge';
import { connectBackend, desktopInvoker, serveBackend, type FromBackend, type PortLike, type ToBackend } from '../../../src-main/ipc';
import { silentLogger } from '../../../src-main/core';
import {
  EVENTS,
  isBackendChannel,
  isChannel,
  isEventName,
  type EventMap,
  type EventName,
  type HandlerTable,
} from '../../../src-main/shared';
import { parseRequest } from '../../../src-main/http/bridge/handlers/parse';
import { fakeDeps } from './fake-deps';

describe('typed IPC contract', () => {
  it('allow-lists only contract channels and events (the preload check)', () => {
    expect(isChannel('app:info')).toBe(true);
    expect(isChannel('batches:create')).toBe(true);
    expect(isChannel('app:nope')).toBe(false);
    expect(isChannel('__proto__')).toBe(false);
    expect(isChannel('export:save')).toBe(true);
    expect(isBackendChannel('export:save')).toBe(false);
    expect(isChannel(42)).toBe(false);
    expect(isEventName('batches:progress')).toBe(true);
    expect(Object.keys(EVENTS)).toContain('batches:changed');
    expect(isEventName('toString')).toBe(false);
  });

  it('parses untrusted input: wrong shapes are invalid-input naming the field', () => {
    const h = createApiHandlers(fakeDeps());
    expect(() => h['batches:pause'].parse({ batchId: 'x' })).toThrow(/batchId/);
    expect(() => h['results:page'].parse({ filter: { maxAdult: 2 } })).toThrow(/filter.maxAdult/);
    expect(() => h['results:page'].parse({ filter: {}, extra: 1 })).toThrow(/invalid-input|Invalid results:page/);
    expect(() => h['settings:update'].parse({ backend: { kind: 'remote', baseUrl: 'ftp://x' } })).toThrow(/backend/);
    expect(h['results:page'].parse({ filter: { tags: ['cat'], minFaces: 1 }, limit: 50 })).toEqual({
      filter: { tags: ['cat'], minFaces: 1 },
      limit: 50,
    });
    expect(h['app:info'].parse(null)).toBeUndefined();
  });

  it('explains channels this build lacks in plain words', async () => {
    const h = createApiHandlers(fakeDeps());
    await expect(h['galleries:list'].run(undefined)).resolves.toEqual({ available: false, entries: [] });
    await expect(h['galleries:add'].run({ kind: 'person', name: 'x', images: ['a.jpg'] })).rejects.toThrow(/Galleries is not available/);
    expect(() => h['galleries:add'].parse({ kind: 'place', name: 'Colosseum', images: ['c.jpg'], latitude: 95, longitude: 12 })).toThrow(
      /latitude/,
    );
  });
});

type Subscribe = (l: <E extends EventName>(name: E, payload: EventMap[E]) => void) => () => void;

/** The backend process's side over a handler table: the export write parses like the real one. */
function side(handlers: HandlerTable, subscribe: Subscribe = () => () => {}) {
  return {
    handlers,
    events: { subscribe },
    thumbnails: async (id: number) => (id === 1 ? { bytes: new Uint8Array([7]), contentType: 'image/webp' } : null),
    saveExport: async (raw: unknown, path: string) => ({ path: `${path}.${parseRequest('export:save', raw).format}`, bytes: 3 }),
  };
}

function pair(): { main: PortLike<FromBackend, ToBackend>; backend: PortLike<ToBackend, FromBackend>; close(): void } {
  const { port1, port2 } = new MessageChannel();
  return {
    main: { postMessage: (m) => port1.postMessage(m), onMessage: (l) => port1.on('message', l) },
    backend: { postMessage: (m) => port2.postMessage(m), onMessage: (l) => port2.on('message', l) },
    close: () => port1.close(),
  };
}

describe('main ⇄ backend process bridge', () => {
  it('forwards invokes with their Result envelopes and pushes events', async () => {
    const { main, backend, close } = pair();
    const listeners = new Set<(name: EventName, payload: unknown) => void>();
    const subscribe = (l: <E extends EventName>(name: E, payload: EventMap[E]) => void): (() => void) => {
      listeners.add(l as never);
      return () => listeners.delete(l as never);
    };
    serveBackend(backend, side(createApiHandlers(fakeDeps()), subscribe), silentLogger);
    const client = connectBackend(main);
    const events: unknown[] = [];
    client.onEvent((name, payload) => events.push([name, payload]));

    await expect(client.invoke('app:info', undefined)).resolves.toMatchObject({ ok: true, value: { name: 'picscan' } });
    await expect(client.invoke('batches:get', { batchId: 99 })).resolves.toEqual({
      ok: false,
      error: { code: 'not-found', message: 'There is no batch 99.' },
    });
    await expect(client.invoke('batches:get', { batchId: -1 })).resolves.toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    await expect(client.exportFile({ filter: {}, format: 'csv' }, '/tmp/x')).resolves.toEqual({
      ok: true,
      value: { path: '/tmp/x.csv', bytes: 3 },
    });
    await expect(client.exportFile({ filter: {}, format: 'xls' }, '/tmp/x')).resolves.toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });
    await expect(client.thumbnail(1)).resolves.toEqual({ ok: true, value: { bytes: new Uint8Array([7]), contentType: 'image/webp' } });
    await expect(client.thumbnail(2)).resolves.toEqual({ ok: true, value: null });

    for (const l of listeners) l('app:notice', { level: 'info', message: 'hello' });
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual([['app:notice', { level: 'info', message: 'hello' }]]);
    close();
  });

  it('fails pending calls in plain words when the backend process exits', async () => {
    const { main, close } = pair();
    const client = connectBackend(main);
    const pending = client.invoke('batches:list', undefined);
    client.fail('The picscan backend stopped.');
    await expect(pending).resolves.toEqual({ ok: false, error: { code: 'internal', message: 'The picscan backend stopped.' } });
    close();
  });
});

describe('desktop actions (main process)', () => {
  it('export:save asks for a path, then has the backend write there; a cancelled dialog saves nothing', async () => {
    const { main, backend, close } = pair();
    serveBackend(backend, side(createApiHandlers(fakeDeps())), silentLogger);
    const paths: Array<string | null> = [null, '/tmp/out'];
    const asked: string[] = [];
    const invoke = desktopInvoker({
      backend: connectBackend(main),
      askSavePath: async (format) => (asked.push(format), paths.shift() ?? null),
      keys: { load: () => null, save: () => {} },
    });
    await expect(invoke('export:save', { filter: {}, format: 'json' })).resolves.toEqual({ ok: true, value: null });
    await expect(invoke('export:save', { filter: {}, format: 'json' })).resolves.toEqual({
      ok: true,
      value: { path: '/tmp/out.json', bytes: 3 },
    });
    expect(asked).toEqual(['json', 'json']);
    await expect(invoke('app:info', undefined)).resolves.toMatchObject({ ok: true, value: { name: 'picscan' } });
    close();
  });

  it('settings:update keeps an accepted remote key in the keychain, hands the stored one to the backend at start', async () => {
    const { main, backend, close } = pair();
    serveBackend(backend, side(createApiHandlers(fakeDeps())), silentLogger);
    const saved: Array<string | null> = [];
    const invoke = desktopInvoker({
      backend: connectBackend(main),
      askSavePath: async () => null,
      keys: { load: () => 'stored-key', save: (k) => void saved.push(k) },
    });
    await expect(invoke('settings:get', undefined)).resolves.toMatchObject({ ok: true, value: { remoteKeySet: true } });
    await expect(invoke('settings:update', { backend: { kind: 'remote', baseUrl: 'ftp://x' }, remoteKey: 'k2' })).resolves.toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });
    expect(saved).toEqual([]);
    await expect(invoke('settings:update', { remoteKey: null })).resolves.toMatchObject({ ok: true, value: { remoteKeySet: false } });
    expect(saved).toEqual([null]);
    close();
  });
});
