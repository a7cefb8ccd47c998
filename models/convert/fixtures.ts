/** Shared fixture images, a sibling of the repository (never an absolute machine path). */
import { fileURLToPath } from 'node:url';

export const fixturesDir = fileURLToPath(new URL('../../../shared/fixtures/images/', import.meta.url));
