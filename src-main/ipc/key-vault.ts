import { safeStorage } from 'electron';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

/** The remote API key at rest, encrypted with the OS keychain through Electron safeStorage. */
export function safeStorageVault(file: string): { load(): string | null; save(key: string | null): void } {
  return {
    load() {
      try {
        return safeStorage.decryptString(readFileSync(file));
      } catch {
        return null;
      }
    },
    save(key) {
      if (key === null) return rmSync(file, { force: true });
      if (!safeStorage.isEncryptionAvailable()) throw new Error('The OS keychain is not available: the key cannot be stored safely.');
      writeFileSync(file, safeStorage.encryptString(key), { mode: 0o600 });
    },
  };
}
