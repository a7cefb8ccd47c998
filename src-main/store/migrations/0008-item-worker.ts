import type { Migration } from '../migrate';

// Why: in a distributed batch each item is analysed by one of many worker processes; the item
// records which one (name as the worker reports it), for exports and for tracing bad results.
export const m0008: Migration = {
  version: 8,
  name: 'item-worker',
  up(db) {
    db.exec('ALTER TABLE items ADD COLUMN worker TEXT');
  },
};
