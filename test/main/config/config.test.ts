import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultAppDataDir, loadConfig } from '../../../src-main/config';
import { AppError } from '../../../src-main/core';
import { runPicscan } from '../../helpers/cli';

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

  it('names a settings file that is not JSON or cannot be read, instead of a parser stack or silent defaults', () => {
    const notJson = mkdtempSync(join(tmpdir(), 'picscan-config-'));
    writeFileSync(join(notJson, 'settings.json'), '{ modelThreads: 2 }');
    expect(() => loadConfig({ dataDir: notJson }, {})).toThrow(AppError);
    expect(() => loadConfig({ dataDir: notJson }, {})).toThrow(/settings\.json is not valid JSON: /);
    const folder = mkdtempSync(join(tmpdir(), 'picscan-config-'));
    mkdirSync(join(folder, 'settings.json'));
    expect(() => loadConfig({ dataDir: folder }, {})).toThrow(/settings\.json cannot be read \(EISDIR/);
  });

  it('names the environment variable holding a value that is not a valid setting', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'picscan-config-'));
    const load = (env: NodeJS.ProcessEnv) => () => loadConfig({ dataDir }, env);
    expect(load({ PICSCAN_MODEL_THREADS: 'abc' })).toThrow('PICSCAN_MODEL_THREADS="abc" is invalid: not a number');
    expect(load({ PICSCAN_ANALYSIS_WORKERS: '99' })).toThrow(/^PICSCAN_ANALYSIS_WORKERS="99" is invalid: Too big/);
    expect(load({ PICSCAN_DOWNLOAD_CONCURRENCY: '2.5' })).toThrow(AppError);
    expect(loadConfig({ dataDir }, { PICSCAN_DOWNLOAD_CONCURRENCY: ' 4 ' }).downloadConcurrency).toBe(4);
  });

  it('the command reports a bad setting in one line and exits 2', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'picscan-config-'));
    writeFileSync(join(dataDir, 'settings.json'), '{bad');
    const fromFile = await runPicscan(['batches'], { env: { PICSCAN_DATA_DIR: dataDir } });
    expect(fromFile.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^picscan: Settings file .*settings\.json is not valid JSON: /),
    ]);
    expect(fromFile.code).toBe(2);
    const fromEnv = await runPicscan(['batches'], {
      env: { PICSCAN_DATA_DIR: mkdtempSync(join(tmpdir(), 'picscan-config-')), PICSCAN_MODEL_THREADS: 'x' },
    });
    expect(fromEnv.stderr.trim()).toBe('picscan: PICSCAN_MODEL_THREADS="x" is invalid: not a number');
    expect(fromEnv.code).toBe(2);
  });

  it('uses the same app-data folder as Electron would', () => {
    expect(defaultAppDataDir({ XDG_CONFIG_HOME: '/x' }, 'linux')).toBe(join('/x', 'picscan'));
    expect(defaultAppDataDir({ APPDATA: 'C:/Users/a/AppData/Roaming' }, 'win32')).toBe(join('C:/Users/a/AppData/Roaming', 'picscan'));
  });
});
