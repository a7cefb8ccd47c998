import { toWireError, type Logger } from '../core';
import {
  isChannel,
  type EventMap,
  type EventName,
  type ExportFormat,
  type ExportSaved,
  type HandlerTable,
  type IpcResult,
  type ResultFilter,
} from '../shared';
import type { FromBackend, PortLike, ToBackend } from './protocol';

type Subscribe = (listener: <E extends EventName>(name: E, payload: EventMap[E]) => void) => () => void;

export interface BackendHostOptions {
  /** Writes the export of a filter to a file the user chose; resolves to its size. */
  exportToFile?: (filter: ResultFilter, format: ExportFormat, path: string) => Promise<ExportSaved>;
  thumbnail?: (itemId: number) => Promise<{ bytes: Uint8Array; contentType: string } | null>;
}

/**
 * Backend side (the utility process): answers invoke messages from the handler table and pushes
 * every event to the main process. Heavy work (fetching, inference, SQLite) stays in this process.
 */
export function serveBackend(
  port: PortLike<ToBackend, FromBackend>,
  table: HandlerTable,
  subscribe: Subscribe,
  logger: Logger,
  opts: BackendHostOptions = {},
): () => void {
  port.onMessage((msg) => {
    const work =
      msg.type === 'invoke'
        ? run(table, msg.channel, msg.req, logger)
        : msg.type === 'export-file'
          ? exportFile(table, msg.req, msg.path, opts, logger)
          : guarded('thumbnail', logger, async () => (opts.thumbnail ? opts.thumbnail(msg.itemId) : null));
    void work.then((result) => port.postMessage({ type: 'result', seq: msg.seq, result }));
  });
  return subscribe((name, payload) => port.postMessage({ type: 'event', name, payload }));
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
  if (!isChannel(channel))
    return Promise.resolve({ ok: false, error: { code: 'not-found', message: `Unknown channel: ${String(channel)}` } });
  const entry = table[channel] as { parse: (raw: unknown) => unknown; run: (req: unknown) => Promise<unknown> };
  return guarded(channel, logger, () => entry.run(entry.parse(raw)));
}

function exportFile(
  table: HandlerTable,
  raw: unknown,
  path: string,
  opts: BackendHostOptions,
  logger: Logger,
): Promise<IpcResult<unknown>> {
  return guarded('export:save', logger, async () => {
    const req = table['export:save'].parse(raw);
    if (!opts.exportToFile) return null;
    return opts.exportToFile(req.filter, req.format, path);
  });
}
