import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../helpers/paths';

// package.json's `engines` promises Node 20.19+ and 22.12+. Every package the lock installs for
// the app itself must accept the lowest version of each line, or npm warns (EBADENGINE) on install
// and the app may break at run time on a supported Node.

interface LockEntry {
  version?: string;
  dev?: boolean;
  engines?: { node?: string } | string[];
}

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };

/** The lowest version of each release line the engines range admits (e.g. 20.19.0, 22.12.0). */
function lowestSupported(range: string): string[] {
  return range.split('||').map((part) => semver.minVersion(part.trim())!.version);
}

function nodeRange(entry: LockEntry): string | undefined {
  return Array.isArray(entry.engines) ? undefined : entry.engines?.node;
}

describe('installed tree matches the engines field', () => {
  const supported = lowestSupported(pkg.engines.node);

  it('the engines field names Node 20 and 22 lines', () => {
    expect(supported.map((v) => semver.major(v))).toEqual([20, 22]);
  });

  it('every runtime dependency accepts each supported Node line', () => {
    const refused: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = nodeRange(entry);
      if (path === '' || entry.dev || !range) continue;
      for (const v of supported) if (!semver.satisfies(v, range)) refused.push(`${path}@${entry.version} wants node ${range} (not ${v})`);
    }
    expect(refused).toEqual([]);
  });

  it('every development dependency runs on Node 20 (tests and builds run there)', () => {
    const refused: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = nodeRange(entry);
      if (path === '' || !entry.dev || !range) continue;
      if (!semver.satisfies(supported[0]!, range)) refused.push(`${path}@${entry.version} wants node ${range}`);
    }
    expect(refused).toEqual([]);
  });
});
