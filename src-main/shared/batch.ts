import type { Detail, Selector, VisualFeature } from './spec';

/** Lifecycle of one item of a batch: queued → fetching → analyzing → done | failed | skipped. */
export type ItemStatus = 'queued' | 'fetching' | 'analyzing' | 'done' | 'failed' | 'skipped';

/** Lifecycle of a batch. */
export type BatchStatus = 'queued' | 'running' | 'paused' | 'done' | 'cancelled';

/** What a batch does to each image. */
export type BatchOperation =
  { kind: 'analyze'; features: VisualFeature[]; details: Detail[] } | { kind: 'detect'; minHeadScale: number; selector: Selector[] };

/**
 * Where analysis runs: the local models, the remote cloud API, or picscan workers on other
 * machines fed through a Redis queue (docs/distributed.md).
 */
export type Backend =
  | { kind: 'local' }
  | { kind: 'remote'; baseUrl: string; method?: 'GET' | 'POST' }
  | {
      kind: 'distributed';
      /** The Redis URL without its password (stored; the password is given again at each run). */
      redisUrl: string;
      /** Random per-batch key that names its queue jobs, so coordinators can share one Redis. */
      queueKey: string;
    };

/** A distributed worker as the coordinator sees it (heartbeats and results). */
export interface WorkerStatus {
  name: string;
  version: string;
  /** Results this worker delivered to this batch in the current run. */
  done: number;
  /** Results per second from this worker over the recent window. */
  imagesPerSecond: number;
  /** Milliseconds since its last heartbeat. */
  lastSeenMs: number;
}

export interface BatchOptions {
  name: string;
  operation: BatchOperation;
  backend: Backend;
  /** Concurrent downloads (default 16). */
  downloadConcurrency?: number;
  /** Concurrent analyses (default: cores). */
  analysisConcurrency?: number;
}

export interface BatchCounts {
  total: number;
  queued: number;
  running: number;
  done: number;
  failed: number;
  skipped: number;
}

export interface BatchSummary {
  id: number;
  name: string;
  status: BatchStatus;
  operation: BatchOperation;
  backend: Backend;
  counts: BatchCounts;
  /** ISO 8601 */
  createdAt: string;
  /** ISO 8601, when the last item finished */
  finishedAt: string | null;
  /**
   * Set when the batch cannot run: `import`, its list is not all in (the import was interrupted,
   * or another process is still importing it); `delete`, a delete of it began and did not finish
   * (its counts are what is left). Either way the way out is to delete it.
   */
  unfinished?: 'import' | 'delete';
}

/** Progress of a running batch (event `batches:progress`). */
export interface BatchProgress {
  batchId: number;
  status: BatchStatus;
  counts: BatchCounts;
  /** Completed items per second over the recent window. */
  imagesPerSecond: number;
  /** Seconds to completion at the current rate, null when unknown. */
  etaSeconds: number | null;
  /** Distributed batches: the workers connected to the queue (heartbeat within 15 s). */
  workers?: WorkerStatus[];
  /**
   * Distributed batches: connected workers with another model set (another picscan version or
   * models), which take none of this batch's items; absent when none.
   */
  mismatchedWorkers?: string[];
  /** Distributed batches: what is wrong with Redis right now (unreachable, refusing writes); absent when all is well. */
  redisTrouble?: string;
  /** Unavailable image hosts whose URLs of this batch wait for them (jobs/host-breaker.ts); absent when none. */
  unavailableHosts?: UnavailableHost[];
}

/** An unavailable image host (no answer, or 502/503/504 to every request), as a running batch waits for it. */
export interface UnavailableHost {
  /** Host and port of its URLs. */
  host: string;
  /** How its last request failed: "no answer in time", "HTTP 503". */
  reason: string;
  /** Seconds since its first failed request. */
  unavailableSeconds: number;
  /** This batch's URLs waiting for it. */
  waiting: number;
}

/** Filters for browsing and exporting results; every field optional, all combined with AND. */
export interface ResultFilter {
  batchId?: number;
  status?: ItemStatus[];
  /** Items having every one of these tags (confidence ≥ tagMinConfidence, default 0.5). */
  tags?: string[];
  tagMinConfidence?: number;
  categories?: string[];
  minFaces?: number;
  maxFaces?: number;
  /** Keep items with adultScore ≤ maxAdult (0..1). */
  maxAdult?: number;
  minAdult?: number;
  maxRacy?: number;
  minRacy?: number;
  /** Dominant colour names (any of). */
  colors?: string[];
  isBW?: boolean;
  /** Minimum clipArtType (0..3). */
  minClipArt?: number;
  lineDrawing?: boolean;
  celebrity?: string;
  landmark?: string;
  /** Case-insensitive text search in captions. */
  captionText?: string;
}

export type ResultSort = 'id' | 'faces' | 'adult' | 'racy' | 'caption';

/** One page request of the results browser; `limit` is capped at 500. */
export interface ResultQuery {
  filter: ResultFilter;
  sort?: ResultSort;
  /** Default 'asc' for id and caption, 'desc' for scores. */
  order?: 'asc' | 'desc';
  offset?: number;
  limit?: number;
}

/** What creating a batch from a list did, line by line. */
export interface BatchImportReport {
  batch: BatchSummary;
  /** Non-blank, non-comment lines (or CSV records) read. */
  lines: number;
  /** Items created (valid and invalid). */
  items: number;
  /** Lines collapsed into an earlier identical URL. */
  duplicates: number;
  /** Lines recorded as failed items because the URL is not valid. */
  invalid: number;
}

/** One row of the results browser. */
export interface ResultItem {
  itemId: number;
  batchId: number;
  url: string;
  status: ItemStatus;
  error: { code: string; message: string } | null;
  width: number | null;
  height: number | null;
  caption: string | null;
  tags: Array<{ name: string; confidence: number }>;
  faceCount: number | null;
  adultScore: number | null;
  racyScore: number | null;
  isBW: boolean | null;
  clipArtType: number | null;
  lineDrawingType: number | null;
  dominantColors: string[];
  accentColor: string | null;
  /** True when the result was reused from an identical image analysed earlier. */
  reused: boolean;
  /** The distributed worker that analysed it; null for local and remote batches. */
  worker: string | null;
  /** `/thumbs/<itemId>` in web mode; a data URL or app URL in Electron. */
  hasThumbnail: boolean;
  /** 'Jpeg' | 'Png' once analysed. */
  format: string | null;
  categories: Array<{ name: string; score: number }>;
  /** Extra CSV columns of the input list, as given. */
  metadata: Record<string, string> | null;
}

/** One item with its full stored response (spec JSON), for the detail view and export. */
export interface ResultDetail {
  item: ResultItem;
  /** `AnalyzeData` for analyze batches, `DetectResponse` for detect batches; null until done. */
  response: unknown;
}

export interface Page<T> {
  items: T[];
  total: number;
  offset: number;
  limit: number;
}

export interface FacetCount {
  name: string;
  count: number;
}

/** Counts for the current filter (live counts in the filter panel, small charts). */
export interface Facets {
  total: number;
  tags: FacetCount[];
  categories: FacetCount[];
  colors: FacetCount[];
  status: FacetCount[];
  withFaces: number;
  bw: number;
  clipArt: number;
  lineDrawing: number;
}

export type ExportFormat = 'csv' | 'json' | 'ndjson';
