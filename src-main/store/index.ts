/** The SQLite store: connection, migrations and one repository per aggregate. All SQL lives here. */
export { openDatabase, BUSY_TIMEOUT_MS, type Db } from './db';
export { databaseError, isBusyError, isStorageError } from './db-errors';
export { dbFileIdentity, dbFileState, saveDbCopy, type DbFileIdentity } from './db-file';
export { LeasesRepo, type BatchLease } from './leases.repo';
export { RedisLeftoversRepo, type RedisLeftover } from './redis-leftovers.repo';
export { migrate, openMigrated, schemaVersion, type Migration } from './migrate';
export { BatchesRepo, type BatchRecord, type NewBatch } from './batches.repo';
export { ItemsRepo, type NewItem, type WorkItem } from './items.repo';
export { ResultsRepo, type NewResult } from './results.repo';
export { analyzeColumns, detectColumns, type ImageFacts, type ResultColumns } from './result-columns';
export { ResultsQuery, type ExportRow, type ItemRow } from './results-query';
export { buildFilter, type FilterSql } from './result-filter';
export { KeysRepo, type ApiKeyRecord } from './keys.repo';
export { TransactionsRepo, type ChargedOperation, type HoldResult } from './transactions.repo';
export { UsageRepo, type UsagePeriod, type UsageBound, type ConsumeResult } from './accounts-usage.repo';
export {
  GalleryRepo,
  type GalleryEntryRecord,
  type GalleryReferenceRecord,
  type NewGalleryEntry,
  type NewGalleryReference,
  type GalleryKindRow,
} from './gallery.repo';
