/**
 * What travels through Redis between the coordinator and the workers (BullMQ job data, JSON).
 *
 * Two queues per model set and batch key:
 *   analyze  coordinator → workers: one job per item, id `i<itemId>` (idempotent: re-adding a
 *            job that exists is a no-op), data {@link AnalyzeJob}.
 *   results  workers → coordinator: one job per outcome, id `i<itemId>-<n>`, data
 *            {@link ResultJob}. The coordinator is a BullMQ worker on it, so results that arrive
 *            while it is down wait in Redis, and one it was writing when killed is handed back.
 * The SQLite write is idempotent (only an unfinished item is completed), so a result delivered
 * twice is stored once.
 */
import type { ErrorCode } from '../../shared/errors';
import type { BatchOperation, UnavailableHost } from '../../shared/batch';
import type { ProcessedImage } from '../../jobs';

/** An item to analyse. */
export interface AnalyzeJob {
  /** Coordinator's batch key (also in the queue name): results go back to this batch. */
  queueKey: string;
  itemId: number;
  url: string;
  operation: BatchOperation;
  /** sha256 of the coordinator's model manifest: a worker with other models refuses the job. */
  modelSet: string;
}

/** The image facts the coordinator stores with a result (no pixels). */
export interface ImageFacts {
  sha256: string;
  metadata: { width: number; height: number; format: string };
  thumbnail: { mimeType: 'image/webp' | 'image/jpeg'; width: number; height: number; base64: string };
}

/** One item's outcome, from the worker that handled it. */
export type ResultJob = {
  itemId: number;
  /** Worker name (`--name`, default host:pid). */
  worker: string;
  fetchMs: number;
} & (
  | { kind: 'done'; image: ImageFacts; processed: ProcessedImage; analyzeMs: number }
  /** These bytes were already claimed in this batch by item `of`: reuse its result. */
  | { kind: 'duplicate'; sha256: string; of: number }
  | { kind: 'failed'; code: ErrorCode; message: string }
  /** The batch was paused or cancelled before the worker started: the item goes back to the queue. */
  | { kind: 'returned' }
);

/** What a worker publishes about itself (heartbeat hash, one field per worker). */
export interface WorkerBeat {
  name: string;
  version: string;
  modelSet: string;
  pid: number;
  host: string;
  concurrency: number;
  /** Images analysed since the worker started (all batches). */
  processed: number;
  /** Over the last minute. */
  imagesPerSecond: number;
  /**
   * Per batch (queue key): the unavailable image hosts this worker's fetches of it wait for
   * (jobs/host-breaker.ts); batches with none are left out. Absent from older workers.
   */
  unavailableHosts?: Record<string, UnavailableHost[]>;
  /** Epoch ms. */
  at: number;
}

/** The control state of a batch, read by workers before each job (Redis string). */
export type BatchControl = 'running' | 'paused' | 'cancelled';
