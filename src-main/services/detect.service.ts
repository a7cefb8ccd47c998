/**
 * The `ai/faces/detect` use case (Kairos semantics): load the image, find faces, shape the
 * response. Parameters arrive parsed (the contract's `detectParamsSchema`, by the gateway or the
 * CLI); image and face-count problems come back as a Kairos `{ Errors }` body, never as
 * exceptions; only model/internal failures and cancellation throw.
 */
import { withoutAnimalHeads } from '../analysis/faces-not-animals';
import { detectFacesInImage, selectorPlan, type FaceResult, type FaceSearchStats } from '../analysis/faces';
import { AppError, throwIfAborted } from '../core';
import type { ModelRunner } from '../inference';
import { intakeErrorKind, type LoadedPixels, type LoadOptions } from '../intake';
import { KAIROS, type KairosCode } from '../shared/api-errors';
import type { DetectRequest } from '../shared/contract';
import type { DetectResponse } from '../shared/spec';
import { kairosError, toDetectedFace } from './detect-response';

/** Parsed detect parameters (`minHeadScale` in range, `selector` never empty). */
export type DetectParams = DetectRequest;

/** Dependencies of the detect service. */
export interface DetectServiceDeps {
  runner: ModelRunner;
  /** An `ImageLoader` (or a stub); detect asks it for pixels only, no thumbnail. */
  loader: { load(input: string, signal: AbortSignal | undefined, opts: LoadOptions): Promise<LoadedPixels> };
  /** More faces than this → 5010 (the spec's rule; Kairos has no detect limit). Default 50. */
  maxFaces?: number;
}

/** A detect response plus wall times in ms (`load` = fetch/read + decode, `faces`, `total`). */
export interface DetectOutcome {
  response: DetectResponse;
  timingsMs: { load: number; faces: number; total: number };
  /** Search/landmark/attribute breakdown of `faces` (absent when parameters or intake failed). */
  stats?: FaceSearchStats;
  /** The library results behind `response` (empty on errors), for callers that need more. */
  faces: FaceResult[];
}

export interface DetectService {
  /** Detects faces; image and no/too-many-face problems return an `{ Errors }` body. */
  detect(params: DetectParams, signal?: AbortSignal): Promise<DetectOutcome>;
}

/** Default face-count limit for 5010. */
export const DEFAULT_MAX_FACES = 50;

/**
 * Creates the detect use case.
 *
 * @example
 * const svc = createDetectService({ runner: engine, loader });
 * const { response } = await svc.detect({ image: 'https://example.com/team.jpg', minHeadScale: 0.015, selector: ['FRONTAL', 'ROLL'] });
 */
export function createDetectService(deps: DetectServiceDeps): DetectService {
  const maxFaces = deps.maxFaces ?? DEFAULT_MAX_FACES;
  return {
    async detect(params, signal) {
      const t0 = performance.now();
      const fail = (code: KairosCode): DetectOutcome => ({
        response: kairosError(code),
        timingsMs: { load: 0, faces: 0, total: performance.now() - t0 },
        faces: [],
      });
      const { minHeadScale } = params;
      const selector = selectorPlan(params.selector);
      let loaded: LoadedPixels;
      try {
        // No thumbnail: the response has no preview, and the WebP encode cost more than the decode.
        loaded = await deps.loader.load(params.image, signal, { thumbnail: false });
      } catch (err) {
        const kind = err instanceof AppError ? intakeErrorKind(err.code) : undefined;
        if (kind === 'format') return fail(KAIROS.invalidImage);
        if (kind === 'url') return fail(KAIROS.invalidUrl);
        throw err;
      }
      const t1 = performance.now();
      const stats = {} as FaceSearchStats;
      let faces: FaceResult[] | undefined;
      try {
        faces = await detectFacesInImage(loaded.image, { minHeadScale, selector, stats, maxFaces }, deps.runner, signal);
        // Human faces only: an unsure close-up face on an image the classifier is sure shows an
        // animal is its head (analysis/faces-not-animals.ts, as in analyze).
        faces = await withoutAnimalHeads(loaded.image, faces, deps.runner, undefined, signal);
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'too-many-faces')) throw err;
      }
      throwIfAborted(signal);
      const t2 = performance.now();
      const timingsMs = { load: t1 - t0, faces: t2 - t1, total: t2 - t0 };
      if (faces === undefined) return { ...fail(KAIROS.tooManyFaces), timingsMs, stats };
      if (faces.length === 0) return { ...fail(KAIROS.noFaces), timingsMs, stats };
      const { width, height } = loaded.metadata;
      return {
        response: {
          images: [{ status: 'Complete', width, height, file: loaded.fileName, faces: faces.map((f, i) => toDetectedFace(f, i + 1)) }],
        },
        timingsMs,
        stats,
        faces,
      };
    },
  };
}
