import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../core';

/**
 * The model set of an install: sha256 of its `models/manifest.json` (which lists every model's
 * own sha256). Coordinator and workers must agree on it for their results to be interchangeable.
 */
export function modelSetOf(modelsDir: string): string {
  const file = join(modelsDir, 'manifest.json');
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (cause) {
    throw new AppError('model-missing', `No model manifest at ${file}: coordinator and workers compare it to match models.`, { cause });
  }
  return createHash('sha256').update(bytes).digest('hex');
}
