import type { Migration } from '../migrate';
import { m0100 } from './0100-create-api-accounts';
import { m0001 } from './0001-create-batches-and-items';
import { m0002 } from './0002-create-results';
import { m0003 } from './0003-caption-search-index';
import { m0004 } from './0004-batch-facet-counts';
import { m0005 } from './0005-batch-import-complete';
import { m0006 } from './0006-result-change-log';
import { m0007 } from './0007-batch-run-leases';
import { m0008 } from './0008-item-worker';
import { m0009 } from './0009-batch-ids-not-reused';
import { m0010 } from './0010-batch-delete-started';
import { m0011 } from './0011-redis-leftovers';
import { m0200 } from './0200-create-galleries';

/**
 * All schema migrations, one file each (`NNNN-kebab-reason.ts`). Version ranges by area keep
 * parallel work from colliding: 1–99 batches/results, 100–199 API accounts, 200–299 galleries.
 */
export const migrations: readonly Migration[] = [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, m0009, m0010, m0011, m0100, m0200];
