import type { AnalyzeData, DetectResponse } from '../../shared/spec';
import { KAIROS } from '../../shared/api-errors';
import type { AnalyzeRequest, DetectRequest, ThumbnailRequest } from '../../shared/contract';

/** An encoded thumbnail: exactly the requested size, JPEG for JPEG input and PNG for PNG input. */
export interface ThumbnailImage {
  data: Uint8Array;
  mimeType: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
}

/**
 * The two image operations the API server sells. The real implementation wraps the analyze and
 * detect services (local models, intake with the server's network policy); tests and the remote
 * backend may supply others.
 */
export interface ImageOperations {
  /** Analyzes one image; failures throw `AppError`s (intake, parameter or model codes). */
  analyze(req: AnalyzeRequest, signal?: AbortSignal): Promise<AnalyzeData>;
  /** Detects faces; failures come back as a Kairos `{ Errors }` body (5002/5010 after processing). */
  detect(req: DetectRequest, signal?: AbortSignal): Promise<DetectResponse>;
  /**
   * Makes a thumbnail; failures throw `AppError`s (intake, model codes). Optional: servers and
   * stand-ins without it answer the thumbnail route with `not-found`.
   */
  thumbnail?(req: ThumbnailRequest, signal?: AbortSignal): Promise<ThumbnailImage>;
}

/** Kairos codes that mean the image was processed (so the call is a charged transaction). */
export const PROCESSED_DETECT_CODES: ReadonlySet<number> = new Set([KAIROS.noFaces, KAIROS.tooManyFaces]);
