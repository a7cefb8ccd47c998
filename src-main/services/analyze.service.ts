import { randomUUID } from 'node:crypto';
import {
  analyzePixels,
  faceEvidenceFromDetected,
  featuresParam,
  parseDetails,
  parseFeatures,
  type AnalyzeDeps,
  type GalleryMatcher,
  type ListParam,
  type ModelRunner,
  type RgbPixels,
} from '../analysis';
import { BugError, throwIfAborted } from '../core';
import type { ImageLoader } from '../intake';
import type { AnalyzeData, DetectedFace, ImageMetadata } from '../shared/spec';

/** A decoded image with its spec metadata (intake's `LoadedImage` fits). */
export interface DecodedInput {
  image: RgbPixels;
  metadata: ImageMetadata;
}

/** Request parameters as they arrive (strings or lists); `feature` is the alternative spelling. */
export interface AnalyzeParams {
  features?: ListParam;
  feature?: ListParam;
  details?: ListParam;
}

/** Dependencies; everything the service touches from outside is injected. */
export interface AnalyzeServiceDeps {
  /** Runs a model by manifest id (the inference engine's `run`). */
  runModel: ModelRunner;
  /** Loads inputs given as strings (URL or, for the desktop/CLI, a path). */
  loader?: Pick<ImageLoader, 'load'>;
  /** The detect operation's face finder at its default search scale (faces issue). */
  detectFaces?: (img: RgbPixels, signal?: AbortSignal) => Promise<DetectedFace[]>;
  /** Celebrity/landmark galleries (their own issue). */
  gallery?: GalleryMatcher;
  newId?: () => string;
}

/** `data` plus per-stage wall times in ms (decode, pixels, objects, faces, nsfw, rules, total). */
export interface AnalyzeOutcome {
  data: AnalyzeData;
  timingsMs: Record<string, number>;
}

export interface AnalyzeService {
  /**
   * Analyzes one image (a URL/path string, or an already decoded image). Parameters are checked
   * before the image is fetched. Throws `AppError`s: intake codes, `unsupported-feature`,
   * `invalid-details`, `model-missing`, `model-failed`, `cancelled`.
   */
  analyze(input: string | DecodedInput, params?: AnalyzeParams, signal?: AbortSignal): Promise<AnalyzeOutcome>;
}

/**
 * Creates the analyze use case.
 *
 * @example
 * const svc = createAnalyzeService({ runModel: (id, feeds, s) => engine.run(id, feeds, s), loader, detectFaces });
 * const { data } = await svc.analyze('https://example.com/cat.jpg', { features: 'Tags,Color' });
 */
export function createAnalyzeService(deps: AnalyzeServiceDeps): AnalyzeService {
  const newId = deps.newId ?? randomUUID;
  const detectFaces = deps.detectFaces;
  const pipelineDeps: AnalyzeDeps = {
    runModel: deps.runModel,
    gallery: deps.gallery,
    detectFaces: detectFaces ? async (img, signal) => faceEvidenceFromDetected(await detectFaces(img, signal)) : undefined,
  };
  return {
    async analyze(input, params = {}, signal) {
      const t0 = performance.now();
      const features = parseFeatures(featuresParam(params.features, params.feature));
      const details = parseDetails(params.details);
      throwIfAborted(signal);
      let decoded: DecodedInput;
      let decodeMs = 0;
      if (typeof input === 'string') {
        if (!deps.loader) throw new BugError('analyze service: no image loader configured for string inputs');
        const loaded = await deps.loader.load(input, signal);
        decoded = loaded;
        decodeMs = loaded.timings.fetchMs + loaded.timings.decodeMs;
      } else {
        decoded = input;
      }
      const { data, timingsMs } = await analyzePixels(decoded.image, features, details, pipelineDeps, signal);
      throwIfAborted(signal);
      const { width, height, format } = decoded.metadata;
      return {
        data: { ...data, requestId: newId(), metadata: { width, height, format } },
        timingsMs: { decode: decodeMs, ...timingsMs, total: performance.now() - t0 },
      };
    },
  };
}
