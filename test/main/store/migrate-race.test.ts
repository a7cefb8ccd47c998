import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../src-main/store';
import { migrations } from '../../../src-main/store/migrations';
import { repoRoot } from '../../helpers/paths';

const PROCESSES = 4;

function migrateInChild(dbPath: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'test/main/store/migrate-child.ts'), dbPath], {
      cwd: repoRoot,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('migrations from several processes at once', () => {
  it('every process upgrades one fresh file without "table already exists"; each step applied once', async () => {
    const highest = Math.max(...migrations.map((m) => m.version));
    for (let round = 0; round < 3; round++) {
      const dbPath = join(mkdtempSync(join(tmpdir(), 'picscan-migrate-race-')), 'picscan.db');
      const runs = await Promise.all(Array.from({ length: PROCESSES }, () => migrateInChild(dbPath)));
      for (const r of runs) {
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
        expect(r.stdout.trim()).toBe(String(highest));
      }
      const db = openDatabase(dbPath);
      expect(db.prepare('SELECT count(*) AS n FROM schema_migrations').get()).toEqual({ n: migrations.length });
      expect(migrate(db)).toBe(highest);
      db.close();
    }
  });
});
