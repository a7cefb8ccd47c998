import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../../config';
import type { Backend, SettingsUpdate, UiSettings } from '../../shared';
import type { SettingsPort } from './handlers';
import { parseRedisUrl } from '../../services/distributed';

/** Settings as the UI edits them, plus what the batch service reads from them. */
export type SettingsStore = SettingsPort & { remoteKey(): string | null; redisUrl(): string | null };

/** Where the remote API key is kept at rest. The UI can replace or forget it, never read it. */
export interface KeyVault {
  load(): string | null;
  save(key: string | null): void;
}

/** In memory only (the Electron backend process: the main process keeps it with safeStorage). */
export function memoryKeyVault(initial: string | null = null): KeyVault {
  let key = initial;
  return { load: () => key, save: (k) => void (key = k) };
}

/**
 * A file readable by the user only (mode 0600) in the app-data folder: web mode and the CLI,
 * where no OS keychain is available. The desktop app uses Electron safeStorage instead.
 */
export function fileKeyVault(dataDir: string, name = 'remote-api-key'): KeyVault {
  const file = join(dataDir, name);
  return {
    load() {
      try {
        return readFileSync(file, 'utf8').trim() || null;
      } catch {
        return null;
      }
    },
    save(key) {
      if (key === null) return rmSync(file, { force: true });
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, key, { mode: 0o600 });
      chmodSync(file, 0o600);
    },
  };
}

function redactedRedis(url: string | null): string | null {
  if (!url) return null;
  try {
    return parseRedisUrl(url).redacted;
  } catch {
    return null;
  }
}

interface UiPrefs {
  backend: Backend;
  server: UiSettings['server'];
}

function readJson(file: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function writeJson(file: string, value: unknown): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(tmp, file);
}

/**
 * Settings of the UI. Numbers the whole app uses (concurrency, model threads) go to
 * `settings.json`, which config/ reads at start; the backend choice and the API server
 * preferences go to `ui-settings.json`; the key goes to the vault.
 */
export function createSettingsStore(
  config: AppConfig,
  vault: KeyVault,
  // The Redis URL may carry a password: kept like a key, in a file only the user can read.
  redisVault: KeyVault = fileKeyVault(config.dataDir, 'redis-url'),
): SettingsStore {
  const settingsFile = join(config.dataDir, 'settings.json');
  const prefsFile = join(config.dataDir, 'ui-settings.json');

  function current(): UiSettings {
    const s = readJson(settingsFile);
    const p = readJson(prefsFile) as Partial<UiPrefs>;
    const num = (k: string, fallback: number): number => (typeof s[k] === 'number' ? (s[k] as number) : fallback);
    return {
      backend: p.backend ?? { kind: 'local' },
      remoteKeySet: vault.load() !== null,
      downloadConcurrency: num('downloadConcurrency', config.downloadConcurrency),
      analysisConcurrency: num('analysisConcurrency', config.analysisConcurrency),
      modelThreads: num('modelThreads', config.modelThreads),
      server: p.server ?? { enabled: false, host: '127.0.0.1', port: 8443 },
      redisUrl: redactedRedis(redisVault.load()),
    };
  }

  return {
    async get() {
      return current();
    },
    async update(change: SettingsUpdate) {
      if (change.redisUrl) parseRedisUrl(change.redisUrl); // refuse a bad URL before saving anything
      mkdirSync(config.dataDir, { recursive: true });
      const s = readJson(settingsFile);
      for (const k of ['downloadConcurrency', 'analysisConcurrency', 'modelThreads'] as const)
        if (change[k] !== undefined) s[k] = change[k];
      writeJson(settingsFile, s);
      const now = current();
      writeJson(prefsFile, { backend: change.backend ?? now.backend, server: change.server ?? now.server } satisfies UiPrefs);
      if (change.remoteKey !== undefined) vault.save(change.remoteKey);
      if (change.redisUrl !== undefined) redisVault.save(change.redisUrl === null ? null : parseRedisUrl(change.redisUrl).url);
      return current();
    },
    remoteKey: () => vault.load(),
    redisUrl: () => redisVault.load(),
  };
}
