import { toWireError, type Logger } from '../core';
import { isBackendChannel, type EventMap, type EventName, type ExportSaved, type HandlerTable, type IpcResult } from '../shared';
import type { FromBackend, PortLike, ToBackend } from './protocol';

type Subscribe = (listener: <E extends EventName>(name: E, payload: EventMap[E]) => void) => () => void;

/** What the backend process answers with: the UI backend of the composition root. */
export interface BackendSide {
  handlers: HandlerTable;
  events: { subscribe: Subscribe };
  /** Thumbnail bytes of an item for the `picscan-thumb:` protocol; null when it has none. */
  thumbnails(itemId: number): Promise<{ bytes: Uint8Array; contentType: string } | null>;
  /** `export:save` once the main process has a path: parses `raw` ({ filter, format }), writes the file. */
  saveExport(raw: unknown, path: string): Promise<ExportSaved>;
}

/**
 * Backend side (the utility process): answers invoke messages from the handler table and pushes
 * every event to the main process. Heavy work (fetching, inference, SQLite) stays in this process.
 */
export function serveBackend(port: PortLike<ToBackend, FromBackend>, side: BackendSide, logger: Logger): () => void {
  port.onMessage((msg) => {
    const work =
      msg.type === 'invoke'
        ? run(side.handlers, msg.channel, msg.req, logger)
        : msg.type === 'export-file'
          ? guarded('export:save', logger, () => side.saveExport(msg.req, msg.path))
          : guarded('thumbnail', logger, () => side.thumbnails(msg.itemId));
    void work.then((result) => port.postMessage({ type: 'result', seq: msg.seq, result }));
  });
  return side.events.subscribe((name, payload) => port.postMessage({ type: 'event', name, payload }));
}

async function guarded(channel: string, logger: Logger, fn: () => Promise<unknown>): Promise<IpcResult<unknown>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    const error = toWireError(err);
    if (error.code === 'internal')
      logger.error(`${channel} failed`, { stack: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    return { ok: false, error };
  }
}

function run(table: HandlerTable, channel: unknown, raw: unknown, logger: Logger): Promise<IpcResult<unknown>> {
  if (!isBackendChannel(channel))
    return Promise.resolve({ ok: false, error: { code: 'not-found', message: `Unknown channel: ${String(channel)}` } });
  const entry = table[channel] as { parse: (raw: unknown) => unknown; run: (req: unknown) => Promise<unknown> };
  return guarded(channel, logger, () => entry.run(entry.parse(raw)));
}
