import { randomUUID } from 'node:crypto';
import {
  analyzePixels,
  faceEvidenceFromDetected,
  faceEvidenceFromResults,
  type AnalyzeDeps,
  type GalleryMatcher,
  type ModelBranch,
  type SubjectModels,
} from '../analysis';
import { detectFacesInImage, selectorPlan, type DetectOptions, type FaceAttributeLevel } from '../analysis/faces';
import type { ModelRunner, RgbImage } from '../inference';
import { BugError, throwIfAborted } from '../core';
import type { ImageLoader } from '../intake';
import type { AnalyzeOptions } from '../shared/contract';
import { DETAILS, VISUAL_FEATURES, type AnalyzeData, type DetectedFace, type ImageMetadata } from '../shared/spec';

/**
 * Smallest face analyze searches for, as a fraction of the shorter image side (analyze has no
 * `minHeadScale` parameter). 0.1 finds every annotated fixture face at a fifth of the cost of the
 * detect default 0.015 (whose extra small-scale tiles mostly add false positives on textures);
 * people too small for it are still counted from the object detector's person boxes.
 */
export const ANALYZE_MIN_HEAD_SCALE = 0.1;

/**
 * Attribute models analyze runs per face: `summary` (faceres and emotion on every face, gear on
 * the SUMMARY_GEAR_FACES largest only). Its response has age, gender and box per face and its
 * rules read the smile and glasses, never the ethnicity gear adds; gear is half of a face's CPU
 * time, so a crowd's faces cost faceres alone while portraits and pairs keep both models' gender
 * (Grace Hopper and Eileen Collins stay "woman"); docs/faces.md "Attribute levels".
 */
export const ANALYZE_FACE_ATTRIBUTES: FaceAttributeLevel = 'summary';

/**
 * The face search analyze runs: detect's FRONTAL selector, so analyze and detect agree on the
 * faces, from `minHeadScale` with the `attributes` level (docs/faces.md "Attribute levels").
 */
export function analyzeFaceOptions(minHeadScale = ANALYZE_MIN_HEAD_SCALE, attributes = ANALYZE_FACE_ATTRIBUTES): DetectOptions {
  return { minHeadScale, selector: selectorPlan(['FRONTAL']), attributes };
}

/** A decoded image with its spec metadata (intake's `LoadedImage` fits). */
export interface DecodedInput {
  image: RgbImage;
  metadata: ImageMetadata;
}

/**
 * Parsed analysis options (the contract's `analyzeOptionsSchema` or `analyzeParamsSchema`): an
 * omitted list means all, an empty one none.
 */
export type AnalyzeParams = AnalyzeOptions;

/** Dependencies; everything the service touches from outside is injected. */
export interface AnalyzeServiceDeps {
  /** Runs the analysis models by manifest id (the inference engine). */
  runModel: ModelRunner;
  /** Loads inputs given as strings (URL or, for the desktop/CLI, a path). */
  loader?: Pick<ImageLoader, 'load'>;
  /**
   * Runs the face models (faces library) with analyze's own search scale; preferred, since it
   * also gives the emotion behind "smiling". Without it (and without `detectFaces`) analyze
   * reports no faces.
   */
  faceRunner?: ModelRunner;
  /** Alternative face source: detect-shaped faces (smiling then comes from lips apart). */
  detectFaces?: (img: RgbImage, signal?: AbortSignal) => Promise<DetectedFace[]>;
  /** Default ANALYZE_MIN_HEAD_SCALE. */
  minHeadScale?: number;
  /** Attribute models per face of `faceRunner`'s search; default ANALYZE_FACE_ATTRIBUTES. */
  faceAttributes?: FaceAttributeLevel;
  /** Celebrity/landmark galleries (their own issue). */
  gallery?: GalleryMatcher;
  /** Runs objects, NSFW and pixel statistics elsewhere (the analyze worker); default this thread. */
  modelBranch?: ModelBranch;
  /** With `modelBranch`: the subject segmenter after the branch, here or there (pipeline.ts `SubjectModels`). */
  subjectModels?: SubjectModels;
  newId?: () => string;
}

/** `data` plus per-stage wall times in ms (decode, pixels, objects, faces, nsfw, rules, total). */
export interface AnalyzeOutcome {
  data: AnalyzeData;
  timingsMs: Record<string, number>;
}

export interface AnalyzeService {
  /**
   * Analyzes one image (a URL/path string, or an already decoded image) with parsed options.
   * Throws `AppError`s: intake codes, `model-missing`, `model-failed`, `cancelled`.
   */
  analyze(input: string | DecodedInput, params?: AnalyzeParams, signal?: AbortSignal): Promise<AnalyzeOutcome>;
}

/**
 * Creates the analyze use case.
 *
 * @example
 * const svc = createAnalyzeService({ runModel: engine, loader, detectFaces });
 * const { data } = await svc.analyze('https://example.com/cat.jpg', { features: ['Tags', 'Color'] });
 */
export function createAnalyzeService(deps: AnalyzeServiceDeps): AnalyzeService {
  const newId = deps.newId ?? randomUUID;
  const { faceRunner, detectFaces } = deps;
  // The `summary` attributes (gear on the largest faces only) cover what analyze reports and its
  // rules read.
  const faceOptions = analyzeFaceOptions(deps.minHeadScale, deps.faceAttributes);
  const pipelineDeps: AnalyzeDeps = {
    runModel: deps.runModel,
    gallery: deps.gallery,
    modelBranch: deps.modelBranch,
    subjectModels: deps.subjectModels,
    detectFaces: faceRunner
      ? async (img, signal) => faceEvidenceFromResults(await detectFacesInImage(img, faceOptions, faceRunner, signal))
      : detectFaces
        ? async (img, signal) => faceEvidenceFromDetected(await detectFaces(img, signal))
        : undefined,
  };
  return {
    async analyze(input, params = {}, signal) {
      const t0 = performance.now();
      const features = new Set(params.features ?? VISUAL_FEATURES);
      const details = new Set(params.details ?? DETAILS);
      throwIfAborted(signal);
      let decoded: DecodedInput;
      let decodeMs = 0;
      if (typeof input === 'string') {
        if (!deps.loader) throw new BugError('analyze service: no image loader configured for string inputs');
        // No thumbnail: one image in, one answer out; nothing shows a preview (batches use their own loader).
        const loaded = await deps.loader.load(input, signal, { thumbnail: false });
        decoded = loaded;
        decodeMs = loaded.timings.fetchMs + loaded.timings.decodeMs;
      } else {
        decoded = input;
      }
      const { data, timingsMs } = await analyzePixels(decoded.image, features, details, pipelineDeps, signal);
      throwIfAborted(signal);
      const { width, height, format } = decoded.metadata;
      return {
        data: inSpecOrder({ ...data, requestId: newId(), metadata: { width, height, format } }),
        timingsMs: { decode: decodeMs, ...timingsMs, total: performance.now() - t0 },
      };
    },
  };
}

/** Model dependencies from one inference engine: the analysis runner and the face runner. */
export function analyzeModelsFromEngine(engine: ModelRunner): Pick<AnalyzeServiceDeps, 'runModel' | 'faceRunner'> {
  return { runModel: engine, faceRunner: engine };
}

/** `data` keys in the order of spec §2.2 (JSON readers see the familiar layout). */
const DATA_ORDER: ReadonlyArray<keyof AnalyzeData> = [
  'categories',
  'adult',
  'tags',
  'description',
  'requestId',
  'metadata',
  'faces',
  'color',
  'imageType',
  'Landmarks',
];

function inSpecOrder(data: AnalyzeData): AnalyzeData {
  const out: Record<string, unknown> = {};
  for (const k of DATA_ORDER) if (data[k] !== undefined) out[k] = data[k];
  return out as unknown as AnalyzeData;
}
