import type { AnalyzeData, DetectResponse } from '../../shared/spec';
import type { AnalyzeRequest, DetectRequest } from './params';

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
}

/** Kairos codes that mean the image was processed (so the call is a charged transaction). */
export const PROCESSED_DETECT_CODES: ReadonlySet<number> = new Set([5002, 5010]);
