import type { Migration } from '../migrate';

/**
 * All schema migrations, one file each (`NNNN-kebab-reason.ts`). Version ranges by area keep
 * parallel work from colliding: 1–99 batches/results, 100–199 API accounts, 200–299 galleries.
 */
export const migrations: readonly Migration[] = [];
