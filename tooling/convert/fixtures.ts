/** The fixture images in the repository (test/fixtures/images), as the converter's parity inputs. */
import { fileURLToPath } from 'node:url';

export const fixturesDir = fileURLToPath(new URL('../../test/fixtures/images/', import.meta.url));
