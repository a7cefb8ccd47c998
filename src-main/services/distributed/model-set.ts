import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The model set of an install: sha256 of its `models/manifest.json` (which lists every model's
 * own sha256). Coordinator and workers must agree on it for their results to be interchangeable.
 */
export function modelSetOf(modelsDir: string): string {
  return createHash('sha256')
    .update(readFileSync(join(modelsDir, 'manifest.json')))
    .digest('hex');
}
