import type { WireError } from './errors';
import type {
  Backend,
  BatchImportReport,
  BatchOptions,
  BatchProgress,
  BatchSummary,
  ExportFormat,
  Facets,
  Page,
  ResultDetail,
  ResultFilter,
  ResultItem,
  ResultQuery,
} from './batch';

/** Identity and locations of the running app, for the About/Settings screens. */
export interface AppInfo {
  name: 'picscan';
  version: string;
  /** OS app-data folder holding the database and settings. */
  dataDir: string;
  dbPath: string;
  /** Where the UI runs: the Electron window, or a browser tab in web mode. */
  mode: 'desktop' | 'web';
}

/** A URL list as the user gave it: pasted text or the content of a .txt / .csv file. */
export interface UrlListInput {
  text: string;
  /** `csv` reads the `url` column (other columns become item metadata); `txt` is one URL per line. */
  format: 'txt' | 'csv';
}

/** Request of `batches:create`: the list plus the batch options; the batch starts at once. */
export interface CreateBatchRequest {
  list: UrlListInput;
  options: BatchOptions;
}

/** What `export:save` wrote (desktop only; web mode downloads `/api/export`). Null when the user cancelled the dialog. */
export type ExportSaved = { path: string; bytes: number } | null;

/**
 * User-editable settings as the UI sees them. The remote API key is write-only: the UI learns
 * only whether one is stored (`remoteKeySet`), never the key.
 */
export interface UiSettings {
  backend: Backend;
  remoteKeySet: boolean;
  /** Concurrent downloads per batch, within `DOWNLOAD_CONCURRENCY` (contract/limits.ts). */
  downloadConcurrency: number;
  /** Concurrent analyses per batch, within `ANALYSIS_CONCURRENCY` (contract/limits.ts). */
  analysisConcurrency: number;
  /** Threads per ONNX session, within `MODEL_THREADS` (takes effect on next start). */
  modelThreads: number;
  /** The local API server (`picscan serve`) as the user wants it. */
  server: { enabled: boolean; host: string; port: number };
  /** Redis of the distributed workers, password shown as `***`; null when not set. */
  redisUrl: string | null;
}

/** A settings change; omitted fields stay. `remoteKey: null` forgets the stored key. */
export interface SettingsUpdate {
  backend?: Backend;
  remoteKey?: string | null;
  downloadConcurrency?: number;
  analysisConcurrency?: number;
  modelThreads?: number;
  server?: { enabled: boolean; host: string; port: number };
  /** Redis URL of the distributed workers (`redis://` or `rediss://`, may carry a password); null forgets it. */
  redisUrl?: string | null;
}

/** State of the local API server as it is running now. */
export interface ServerState {
  running: boolean;
  /** Base URL when running, e.g. `https://127.0.0.1:8443`. */
  url: string | null;
  /** Plain words when it failed to start or is unavailable in this build. */
  error: string | null;
}

/** One enrolled person or place (galleries, issue 8). */
export interface GalleryEntry {
  id: number;
  kind: 'person' | 'place';
  name: string;
  references: number;
}

/** Enrols a person (one face per reference image) or a place, from image URLs or local paths. */
export type GalleryAddRequest =
  | {
      kind: 'person';
      name: string;
      images: string[];
      /** 1-based, left to right, when an image shows several faces. */ faceNumber?: number;
    }
  | { kind: 'place'; name: string; images: string[]; latitude: number; longitude: number; mid?: string };

/** The galleries; `available` is false until this build has them. */
export interface GalleryState {
  available: boolean;
  entries: GalleryEntry[];
}

/**
 * The whole request/response surface between the UI and the main side. Main (ipc/ and http/),
 * the preload and the renderer all share it. Channel names are `domain:kebab-action`.
 */
export interface InvokeMap {
  'app:info': { req: void; res: AppInfo };
  'batches:list': { req: void; res: BatchSummary[] };
  'batches:get': { req: { batchId: number }; res: BatchSummary };
  /** Creates a batch from a URL list and starts it. */
  'batches:create': { req: CreateBatchRequest; res: BatchImportReport };
  'batches:pause': { req: { batchId: number }; res: BatchSummary };
  /** Starts or resumes a queued or paused batch. */
  'batches:resume': { req: { batchId: number }; res: BatchSummary };
  /**
   * Puts a stopped batch's failed items back in the queue (not the lines the import refused) and
   * starts it, e.g. after the image host or the remote service was down.
   */
  'batches:retry-failed': { req: { batchId: number }; res: BatchSummary };
  'batches:cancel': { req: { batchId: number }; res: BatchSummary };
  'batches:delete': { req: { batchId: number }; res: void };
  /** Last known progress of each running batch (rates and ETA), for a freshly opened UI. */
  'batches:progress': { req: void; res: BatchProgress[] };
  'results:page': { req: ResultQuery; res: Page<ResultItem> };
  'results:facets': { req: { filter: ResultFilter }; res: Facets };
  'results:get': { req: { itemId: number }; res: ResultDetail };
  /**
   * Fetches and analyses a finished (done or failed) item again with its batch's operation, and
   * resolves to the item with its new result once stored (its thumbnail is replaced too).
   */
  'results:reanalyze': { req: { itemId: number }; res: ResultItem };
  /** A smart-cropped thumbnail of the item's image, `width × height` px (each 1..1024), made on demand. */
  'results:smart-thumbnail': { req: { itemId: number; width: number; height: number }; res: SmartThumbnail };
  /**
   * Desktop action: the main process asks where to save, then the backend writes the export of
   * the filter there. Web mode answers `invalid-input` (it downloads `/api/export` instead).
   */
  'export:save': { req: { filter: ResultFilter; format: ExportFormat }; res: ExportSaved };
  'settings:get': { req: void; res: UiSettings };
  'settings:update': { req: SettingsUpdate; res: UiSettings };
  'server:status': { req: void; res: ServerState };
  'galleries:list': { req: void; res: GalleryState };
  'galleries:add': { req: GalleryAddRequest; res: GalleryEntry };
  'galleries:remove': { req: { id: number }; res: void };
}

/** Push events from the main side to the UI. */
export interface EventMap {
  'app:notice': { level: 'info' | 'warn' | 'error'; message: string };
  /** Progress of a running batch, at most a few times per second per batch. */
  'batches:progress': BatchProgress;
  /** A batch was created, deleted or changed status: refresh the list. */
  'batches:changed': { batchId: number };
}

export type Channel = keyof InvokeMap;
export type EventName = keyof EventMap;
export type Req<C extends Channel> = InvokeMap[C]['req'];
export type Res<C extends Channel> = InvokeMap[C]['res'];
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: WireError };

/** A smart-cropped thumbnail for download (`results:smart-thumbnail`). */
export interface SmartThumbnail {
  /** Suggested file name: `<item id>-<source name>.jpg|png`. */
  fileName: string;
  /** JPEG for JPEG sources, PNG for PNG sources. */
  mimeType: 'image/jpeg' | 'image/png';
  /** The encoded file, Base64 (travels as JSON in web mode). */
  dataBase64: string;
  /** Exactly the requested size, px. */
  width: number;
  height: number;
}

/** Runtime allow-list of invoke channels; missing or extra keys fail to compile. */
export const CHANNELS = {
  'app:info': true,
  'batches:list': true,
  'batches:get': true,
  'batches:create': true,
  'batches:pause': true,
  'batches:resume': true,
  'batches:retry-failed': true,
  'batches:cancel': true,
  'batches:delete': true,
  'batches:progress': true,
  'results:page': true,
  'results:facets': true,
  'results:get': true,
  'results:reanalyze': true,
  'results:smart-thumbnail': true,
  'export:save': true,
  'settings:get': true,
  'settings:update': true,
  'server:status': true,
  'galleries:list': true,
  'galleries:add': true,
  'galleries:remove': true,
} as const satisfies Record<Channel, true>;

/**
 * Channels with a handler in the backend's table: every channel but `export:save`, which the
 * desktop's main process answers itself (a native dialog, then the backend's file write).
 */
export type BackendChannel = Exclude<Channel, 'export:save'>;

/** Runtime allow-list of event names. */
export const EVENTS = { 'app:notice': true, 'batches:progress': true, 'batches:changed': true } as const satisfies Record<EventName, true>;

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.hasOwn(CHANNELS, name);
}

export function isBackendChannel(name: unknown): name is BackendChannel {
  return isChannel(name) && name !== 'export:save';
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(EVENTS, name);
}

/** One handler per channel: parses untrusted input, then runs the use case. */
export interface HandlerEntry<C extends Channel> {
  parse: (raw: unknown) => Req<C>;
  run: (req: Req<C>) => Promise<Res<C>>;
}

/** Every backend channel's handler; a mapped type makes a missing or extra channel a compile error. */
export type HandlerTable = { [C in BackendChannel]: HandlerEntry<C> };

/** The API the preload exposes on `window.api` (and the web-mode client mirrors). */
export interface PicscanApi {
  invoke<C extends Channel>(channel: C, req: Req<C>): Promise<IpcResult<Res<C>>>;
  on<E extends EventName>(event: E, listener: (payload: EventMap[E]) => void): () => void;
}
