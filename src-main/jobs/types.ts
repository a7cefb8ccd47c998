import type { DecodeGate, LoadedImage } from '../intake';
import type { BatchOperation, UnavailableHost } from '../shared/batch';
import type { AnalyzeData, DetectResponse } from '../shared/spec';

/** An image after intake: fetched, checked, decoded, hashed, with a thumbnail. */
export type FetchedImage = LoadedImage;

/** How one fetch of a batch runs. */
export interface FetchOptions {
  /** Awaited with the image's pixel count before its pixels are decoded. */
  beforeDecode?: DecodeGate;
  /** The batch the fetch is for (`unavailableHosts`). */
  batchId?: number;
  /**
   * Runs the download in one of the caller's download slots, once the URL's host admits it: a URL
   * that waits for an unavailable host (jobs/host-breaker.ts) holds no slot meanwhile. Without
   * it, the download runs in the caller's own turn.
   */
  slot?: <T>(download: () => Promise<T>) => Promise<T>;
  /** Told when the fetch starts (true) and stops (false) waiting for an unavailable host. */
  onHostWait?: (waiting: boolean) => void;
}

/**
 * Gets one image of a batch: url (http(s) or file:) → a loaded image. Throws an AppError with an
 * intake code (`image-fetch-failed`, `image-timeout`, `invalid-image-format`…) or `cancelled`.
 */
export interface ImageFetcher {
  fetch(url: string, signal: AbortSignal, options?: FetchOptions): Promise<FetchedImage>;
  /**
   * For a caller that can put `url` aside rather than wait with it: ms it should stay away
   * because its host is unavailable, or 0 to fetch it now (jobs/host-breaker.ts `holdFor`).
   */
  holdFor?(url: string, batchId?: number): number;
  /** The unavailable hosts (jobs/host-breaker.ts) whose URLs of `batchId` wait for them now. */
  unavailableHosts?(batchId: number): UnavailableHost[];
  /** Releases pooled connections. */
  close?(): Promise<void>;
}

/** A spec response for one image: analyze `data`, or the detect body (including its Kairos error body). */
export type ProcessedImage = { kind: 'analyze'; data: AnalyzeData } | { kind: 'detect'; response: DetectResponse };

/**
 * Runs the batch's operation on one fetched image. A spec-level outcome (detect's "no faces")
 * is a normal return value; throws an AppError only when the image could not be processed
 * (`model-failed`, `remote-failed`…) or `cancelled`.
 */
export interface ImageProcessor {
  process(image: FetchedImage, operation: BatchOperation, signal: AbortSignal): Promise<ProcessedImage>;
  /** Releases models and sessions. */
  close?(): Promise<void>;
  /**
   * Starts no more model runs, on any of its threads, and resolves once those running have
   * returned (inference/run-gate.ts): a process that must exit at once, without `close()`, calls
   * this first, since ending a thread inside a model run aborts the process. Images in hand then
   * never settle. Callers bound the wait.
   */
  halt?(): Promise<void>;
}
