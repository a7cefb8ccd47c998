import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../helpers/paths';

const electronBinaryPresent = existsSync(join(repoRoot, 'node_modules', 'electron', 'path.txt'));

describe('npm start without a usable Electron', () => {
  it.skipIf(electronBinaryPresent)('explains why in one line, never with a stack trace, and falls back to web mode', () => {
    const env = { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '' };
    const run = spawnSync(process.execPath, [join(repoRoot, 'bin', 'start.js'), '--help'], {
      cwd: repoRoot,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const firstLine = run.stderr.split('\n')[0] ?? '';
    expect(firstLine).toMatch(/^picscan: the desktop window cannot start because .+; starting web mode instead\.$/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
