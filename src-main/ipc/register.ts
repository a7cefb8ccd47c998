import { ipcMain } from 'electron';
import type { Channel, IpcResult, Res } from '../shared/ipc';
import { toWireError, type Logger } from '../core';
import type { HandlerTable } from './handlers';

/** Registers every handler with ipcMain: the only place `ipcMain.handle` is called. */
export function registerHandlers(table: HandlerTable, logger: Logger): void {
  for (const channel of Object.keys(table) as Channel[]) {
    const entry = table[channel];
    ipcMain.handle(channel, async (_event, raw: unknown): Promise<IpcResult<Res<typeof channel>>> => {
      try {
        const req = (entry.parse as (r: unknown) => never)(raw);
        return { ok: true, value: await (entry.run as (r: unknown) => Promise<Res<typeof channel>>)(req) };
      } catch (err) {
        const wire = toWireError(err);
        if (wire.code === 'internal') logger.error(`ipc ${channel} failed`, { stack: err instanceof Error ? err.stack : String(err) });
        return { ok: false, error: wire };
      }
    });
  }
}
