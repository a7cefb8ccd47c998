import type { Channel, ExportFormat, IpcResult } from '../shared';
import type { BackendClient } from './backend-client';
import type { Invoker } from './protocol';

/** Where the desktop keeps the remote API key at rest (the OS keychain through safeStorage). */
export interface DesktopKeyStore {
  load(): string | null;
  save(key: string | null): void;
}

/** The main process's own parts of the desktop actions. */
export interface DesktopActionsDeps {
  backend: BackendClient;
  /** The native save dialog: the chosen path, or null when the user cancelled. */
  askSavePath(format: ExportFormat): Promise<string | null>;
  keys: DesktopKeyStore;
}

/**
 * The desktop's invoker: every contract channel reaches the backend process, except the
 * desktop actions, which the main process takes part in. `export:save` asks for a path (a
 * native dialog), then has the backend write the file there; `settings:update` also keeps a
 * changed remote key in the OS keychain once the backend has accepted it. The stored key goes
 * to the backend at start, so it never rests on disk unencrypted.
 */
export function desktopInvoker(deps: DesktopActionsDeps): Invoker {
  const { backend, keys } = deps;
  const stored = keys.load();
  if (stored) void backend.invoke('settings:update', { remoteKey: stored });

  const actions: Partial<Record<Channel, (raw: unknown) => Promise<IpcResult<unknown>>>> = {
    'export:save': async (raw) => {
      const format = (raw as { format?: unknown } | null)?.format;
      const path = await deps.askSavePath(format === 'json' || format === 'ndjson' ? format : 'csv');
      return path === null ? { ok: true, value: null } : backend.exportFile(raw, path);
    },
    'settings:update': async (raw) => {
      const result = await backend.invoke('settings:update', raw);
      const key = (raw as { remoteKey?: string | null } | null)?.remoteKey;
      if (result.ok && key !== undefined) keys.save(key);
      return result;
    },
  };
  return (channel, raw) => actions[channel]?.(raw) ?? backend.invoke(channel, raw);
}
