/**
 * Redis names used by distributed batches, under one BullMQ prefix. Queue names carry the model
 * set, so a worker with other models never even sees a batch's jobs (and says so, see
 * worker-host.ts); they carry the batch key, so each batch can be paused or drained alone.
 */
export const PREFIX = 'picscan';

/** First 16 hex digits of the manifest hash: enough to tell model sets apart in names. */
const short = (modelSet: string): string => modelSet.slice(0, 16);

export const analyzeQueueName = (modelSet: string): string => `analyze-${short(modelSet)}`;
export const resultsQueueName = (queueKey: string): string => `results-${queueKey}`;
export const analyzeJobId = (queueKey: string, itemId: number): string => `${queueKey}-i${itemId}`;
/** An item's result job in its batch's results queue: one per item, so a repeated post is stored once. */
export const resultJobId = (itemId: number): string => `i${itemId}`;

/** Plain Redis keys (outside BullMQ's own). */
export const keys = {
  /** Hash: worker name → WorkerBeat JSON. */
  workers: `${PREFIX}:workers`,
  /** Hash: queue key → model set of every batch a coordinator has announced. */
  batches: `${PREFIX}:batches`,
  /** String: the batch's BatchControl. */
  control: (queueKey: string) => `${PREFIX}:batch:${queueKey}:control`,
  /** Hash: sha256 → item id that first claimed those bytes in the batch (cross-worker de-duplication). */
  seen: (queueKey: string) => `${PREFIX}:batch:${queueKey}:seen`,
} as const;
