import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** Repository root. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** Shared real-image fixtures (a sibling of the repository), with ground truth in manifest.json. */
export const fixturesDir = join(repoRoot, '..', 'shared', 'fixtures', 'images');
/** A fixture image's absolute path by file name. */
export const fixture = (name: string): string => join(fixturesDir, name);
