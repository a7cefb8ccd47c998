/**
 * Every bound a request or option is checked against, defined once. The zod schemas of this
 * folder, the config file schema, the CLI's help texts and the renderer's form inputs all read
 * these; none restates a number.
 */
import { MIN_HEAD_SCALE } from '../spec';

export { MIN_HEAD_SCALE };

/** Concurrent image downloads per batch. I/O-bound, so far above the core count. */
export const DOWNLOAD_CONCURRENCY = { min: 1, max: 256 } as const;

/**
 * Concurrent analyses per batch. 64, not 256: analysis is CPU-bound (each slot holds a decoded
 * image and runs the models), the config file and the UI already capped it at 64, and the
 * service's former 256 was the download bound copied; nothing above 64 was ever reachable from
 * the settings, the UI or the CLI.
 */
export const ANALYSIS_CONCURRENCY = { min: 1, max: 64 } as const;

/** Threads per ONNX session (intraOpNumThreads). */
export const MODEL_THREADS = { min: 1, max: 64 } as const;

/** Batch analysis worker threads, each with its own copy of the models (memory-bound). */
export const ANALYSIS_WORKERS = { min: 1, max: 16 } as const;

/** Longest `Retry-After` a batch waits out for one image, in seconds. */
export const MAX_RETRY_AFTER_S = { min: 0, max: 3600 } as const;

/** Thumbnail side, px (both `width` and `height`). */
export const THUMBNAIL_SIDE_PX = { min: 1, max: 1024 } as const;

/** Longest batch name, characters. */
export const BATCH_NAME_MAX_CHARS = 200;

/** Largest pasted or opened URL list sent in one request, characters (512 Mi). */
export const URL_LIST_MAX_CHARS = 512 * 1024 * 1024;

/**
 * Largest body of one web-mode call (`POST /api/invoke/:channel`), bytes (256 MiB). The whole
 * URL list of `batches:create` travels as JSON in that body, so this is what bounds a list in
 * web mode, well before `URL_LIST_MAX_CHARS` (the desktop app's IPC and `picscan batch` have no
 * body limit): about 4 million 60-character URLs. A Fastify body is buffered whole before it is
 * parsed, so the bound also caps what one call can make the server hold.
 */
export const WEB_INVOKE_BODY_MAX_BYTES = 256 * 1024 * 1024;

/** Longest remote API base URL or Redis URL, characters. */
export const SERVICE_URL_MAX_CHARS = 2000;

/** Longest remote API key, characters. */
export const REMOTE_KEY_MAX_CHARS = 500;

/** Longest host name of the local API server, characters (DNS limit). */
export const HOST_MAX_CHARS = 255;

/** TCP port (0 = any free port). */
export const PORT = { min: 0, max: 65535 } as const;

/** Results per page of the results grid. */
export const RESULTS_PAGE_SIZE = { min: 1, max: 500 } as const;

/** Result filter lists (tags, categories): most entries, and longest entry in characters. */
export const FILTER_LIST = { maxEntries: 50, maxChars: 200 } as const;

/** Longest caption text searched, characters. */
export const CAPTION_QUERY_MAX_CHARS = 500;

/** `minClipArt` filter: the spec's clipArtType scale 0..3. */
export const CLIP_ART_TYPE = { min: 0, max: 3 } as const;

/** Gallery enrolment limits. */
export const GALLERY = {
  /** Longest person or place name, characters. */
  nameMaxChars: 200,
  /** Reference images per enrolment. */
  images: { min: 1, max: 50 },
  /** Longest reference (URL or path), characters. */
  imageMaxChars: 4000,
  /** 1-based face number in a reference image showing several faces. */
  faceNumber: { min: 1, max: 100 },
  /** Longest knowledge-graph entity id, characters. */
  midMaxChars: 200,
  latitude: { min: -90, max: 90 },
  longitude: { min: -180, max: 180 },
} as const;
