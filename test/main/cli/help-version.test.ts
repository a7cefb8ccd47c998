import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPicscan } from '../../helpers/cli';
import { repoRoot } from '../../helpers/paths';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };

describe('picscan command', () => {
  it('is declared as the package bin', () => {
    expect(pkg.bin.picscan).toBe('./bin/picscan.js');
  });

  it('prints usage with --help and exits 0', async () => {
    const run = await runPicscan(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: picscan/m);
    expect(run.stdout).toContain('--version');
  });

  it('prints the package version with --version and exits 0', async () => {
    const run = await runPicscan(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(pkg.version);
  });

  it('rejects an unknown option with a usage error (exit 2) and a hint', async () => {
    const run = await runPicscan(['--no-such-option']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown option '--no-such-option'");
    expect(run.stderr).toContain('picscan --help');
  });
});
