import { toWireError, type Logger } from '../../core';
import type { BackendChannel, HandlerTable, IpcResult, Res } from '../../shared';

/** Parses and runs one call through the handler table; never throws (the Result envelope). */
export async function dispatch<C extends BackendChannel>(
  table: HandlerTable,
  channel: C,
  raw: unknown,
  logger: Logger,
): Promise<IpcResult<Res<C>>> {
  const entry = table[channel];
  try {
    return { ok: true, value: await entry.run(entry.parse(raw)) };
  } catch (err) {
    const error = toWireError(err);
    if (error.code === 'internal')
      logger.error(`${channel} failed`, { stack: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    return { ok: false, error };
  }
}
