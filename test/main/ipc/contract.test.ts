import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../src-main/ipc';
import { CHANNELS, EVENTS, isChannel, isEventName } from '../../../src-main/shared/ipc';
import { loadConfig } from '../../../src-main/config';

const config = loadConfig({ dataDir: mkdtempSync(join(tmpdir(), 'picscan-contract-')) }, {});

describe('typed IPC contract', () => {
  it('has exactly one handler per channel, and no handler without a channel', () => {
    const handlers = createHandlers({ config });
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(CHANNELS).sort());
    for (const entry of Object.values(handlers)) {
      expect(typeof entry.parse).toBe('function');
      expect(typeof entry.run).toBe('function');
    }
  });

  it('allow-lists only contract channels and events (the preload check)', () => {
    expect(isChannel('app:info')).toBe(true);
    expect(isChannel('app:nope')).toBe(false);
    expect(isChannel('__proto__')).toBe(false);
    expect(isChannel(42)).toBe(false);
    expect(isEventName(Object.keys(EVENTS)[0])).toBe(true);
    expect(isEventName('toString')).toBe(false);
  });

  it('answers app:info from the real config', async () => {
    const info = await createHandlers({ config })['app:info'].run(undefined);
    expect(info).toEqual({ name: 'picscan', version: config.version, dataDir: config.dataDir, dbPath: config.dbPath });
  });
});
