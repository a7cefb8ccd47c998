import { BrowserWindow, dialog, ipcMain, type WebContents } from 'electron';
import { CHANNELS, type Channel, type EventName, type ExportFormat } from '../shared';
import type { Invoker } from './protocol';

/** Registers every contract channel with ipcMain: the only place `ipcMain.handle` is called. */
export function registerInvoker(invoke: Invoker): void {
  for (const channel of Object.keys(CHANNELS) as Channel[]) {
    // The sender is our own sandboxed window (navigation is locked down); input is still untrusted
    // and is parsed by the handler table in the backend process.
    ipcMain.handle(channel, (_event, raw: unknown) => invoke(channel, raw));
  }
}

/** The native save dialog for an export, over the focused window; null when cancelled. */
export async function askSavePath(format: ExportFormat): Promise<string | null> {
  const win = BrowserWindow.getFocusedWindow();
  const options = { defaultPath: `picscan-export.${format}`, filters: [{ name: format.toUpperCase(), extensions: [format] }] };
  const choice = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
  return choice.canceled || !choice.filePath ? null : choice.filePath;
}

/** Sends an event to a window unless it is gone. */
export function sendEvent(target: WebContents, name: EventName, payload: unknown): void {
  if (!target.isDestroyed()) target.send(name, payload);
}
