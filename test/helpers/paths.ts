import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** Repository root. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** The real-image fixtures in the repository, with ground truth in manifest.json (LICENSES.md: sources). */
export const fixturesDir = join(repoRoot, 'test', 'fixtures', 'images');
/** A fixture image's absolute path by file name. */
export const fixture = (name: string): string => join(fixturesDir, name);
