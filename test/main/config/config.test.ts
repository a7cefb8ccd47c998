import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultAppDataDir, loadConfig } from '../../../src-main/config';

describe('loadConfig', () => {
  it('layers defaults < settings file < environment < overrides, and freezes the result', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'picscan-config-'));
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ downloadConcurrency: 4, modelThreads: 1 }));
    const config = loadConfig({ dataDir, settings: { modelThreads: 2 } }, { PICSCAN_ANALYSIS_CONCURRENCY: '3' });
    expect(config.downloadConcurrency).toBe(4);
    expect(config.analysisConcurrency).toBe(3);
    expect(config.modelThreads).toBe(2);
    expect(config.dbPath).toBe(join(dataDir, 'picscan.db'));
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('fails with a clear message naming the file when settings are invalid', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'picscan-config-'));
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ modelThreads: 0 }));
    expect(() => loadConfig({ dataDir }, {})).toThrow(/settings\.json is invalid: modelThreads/);
  });

  it('uses the same app-data folder as Electron would', () => {
    expect(defaultAppDataDir({ XDG_CONFIG_HOME: '/x' }, 'linux')).toBe(join('/x', 'picscan'));
    expect(defaultAppDataDir({ APPDATA: 'C:/Users/a/AppData/Roaming' }, 'win32')).toBe(join('C:/Users/a/AppData/Roaming', 'picscan'));
  });
});
