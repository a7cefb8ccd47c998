import type {
  AppInfo,
  BatchImportReport,
  BatchProgress,
  BatchSummary,
  CreateBatchRequest,
  Facets,
  GalleryAddRequest,
  GalleryEntry,
  GalleryState,
  Page,
  ResultDetail,
  ResultFilter,
  ResultItem,
  ResultQuery,
  ServerState,
  SettingsUpdate,
  SmartThumbnail,
  UiSettings,
} from '../../../shared';

/** Batch use cases the UI needs (bound to the batch service by the composition root). */
export interface BatchesPort {
  list(): Promise<BatchSummary[]>;
  get(batchId: number): Promise<BatchSummary>;
  create(req: CreateBatchRequest): Promise<BatchImportReport>;
  pause(batchId: number): Promise<BatchSummary>;
  resume(batchId: number): Promise<BatchSummary>;
  /** Failed items (those that were tried) back in the queue, then a start. */
  retryFailed(batchId: number): Promise<BatchSummary>;
  cancel(batchId: number): Promise<BatchSummary>;
  remove(batchId: number): Promise<void>;
  /** Last known progress of running batches. */
  progress(): Promise<BatchProgress[]>;
}

/** Result browsing use cases. */
export interface ResultsPort {
  page(query: ResultQuery): Promise<Page<ResultItem>>;
  facets(filter: ResultFilter): Promise<Facets>;
  get(itemId: number): Promise<ResultDetail>;
  reanalyze(itemId: number): Promise<ResultItem>;
}

/** Thumbnails made on demand from an item's image (the detail screen's download). */
export interface ThumbnailsPort {
  smart(itemId: number, width: number, height: number): Promise<SmartThumbnail>;
}

export interface SettingsPort {
  get(): Promise<UiSettings>;
  update(change: SettingsUpdate): Promise<UiSettings>;
}

export interface GalleriesPort {
  list(): Promise<GalleryState>;
  add(req: GalleryAddRequest): Promise<GalleryEntry>;
  remove(id: number): Promise<void>;
}

/** Everything the handler table calls; each transport's composition root binds it. */
export interface ApiDeps {
  info: Omit<AppInfo, 'name'>;
  batches: BatchesPort;
  results: ResultsPort;
  settings: SettingsPort;
  server: { status(): Promise<ServerState> };
  /** Absent where no models are available. */
  thumbnails?: ThumbnailsPort;
  /** Absent until this build has galleries (issue 8). */
  galleries?: GalleriesPort;
}
