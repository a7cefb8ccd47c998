/**
 * The parameters of the three image operations (spec §4.1, §4.2, and thumbnails): one zod
 * schema each, read by the HTTP API (parsing and the OpenAPI document), the CLI and the
 * services. A query string (strings, repeated keys as arrays) and a JSON body (any values) both
 * parse; unknown keys (`key`) are ignored. Problems carry the spec's error codes: a missing
 * `image` is `missing-parameter` (Kairos 1002), a data URL or Base64 `invalid-image-url`, an
 * unknown feature `unsupported-feature` (Azure NotSupportedVisualFeature), an unknown detail
 * `invalid-details` (InvalidDetails), a language other than English `unsupported-language`
 * (NotSupportedLanguage), anything else `invalid-parameter` (BadArgument, 1003).
 */
import { z } from 'zod';
import type { WireError } from '../errors';
import { DETAILS, SELECTORS, VISUAL_FEATURES, type Detail, type Selector, type VisualFeature } from '../spec';
import { MIN_HEAD_SCALE, THUMBNAIL_SIDE_PX } from './limits';
import { enumList } from './lists';
import { addProblem, firstProblem, quoted } from './problems';

const BASE64ISH = /^[A-Za-z0-9+/=_-\s]{64,}$/;

const MISSING_IMAGE = 'The required parameter `image` (a public JPG or PNG URL) is missing.';

/** `image`: a non-empty URL-looking string, trimmed; data URLs and Base64 refused. */
export const imageParam = z
  .string({
    error: (iss) => (iss.input === undefined || iss.input === null ? MISSING_IMAGE : '`image` must be a string holding an image URL.'),
  })
  .transform((v, ctx) => {
    const s = v.trim();
    if (s === '') {
      addProblem(ctx, 'missing-parameter', MISSING_IMAGE, 'image');
      return z.NEVER;
    }
    if (/^data:/i.test(s)) {
      addProblem(
        ctx,
        'invalid-image-url',
        'Data URLs are not accepted: pass a publicly accessible http(s) URL of a JPG or PNG image.',
        'image',
      );
      return z.NEVER;
    }
    if (!/^[a-z][a-z0-9+.-]*:/i.test(s) && BASE64ISH.test(s)) {
      addProblem(
        ctx,
        'invalid-image-url',
        'Base64-encoded images are not accepted: pass a publicly accessible http(s) URL of a JPG or PNG image.',
        'image',
      );
      return z.NEVER;
    }
    return s;
  })
  .describe('Public http(s) URL of a JPG or PNG image. Data URLs, Base64 and uploads are refused.');

/** Visual features: comma-separated or an array, any case; unknown → `unsupported-feature`. */
export const featuresList = enumList<VisualFeature>(VISUAL_FEATURES, 'features', 'unsupported-feature');
/** The `feature` spelling of `featuresList`. */
export const featureList = enumList<VisualFeature>(VISUAL_FEATURES, 'feature', 'unsupported-feature');
/** Azure Analyze's own name of `featuresList`, so a client written for Azure is understood. */
export const visualFeaturesList = enumList<VisualFeature>(VISUAL_FEATURES, 'visualFeatures', 'unsupported-feature');

/** The features named under any of the three spellings, each once, in the order given. */
const mergedFeatures = (...lists: Array<VisualFeature[] | null | undefined>): VisualFeature[] => [
  ...new Set(lists.flatMap((l) => l ?? [])),
];
/** Domain details: comma-separated or an array, any case; unknown → `invalid-details`. */
export const detailsList = enumList<Detail>(DETAILS, 'details', 'invalid-details');
/** Face-search selectors; unknown → `invalid-parameter`. */
export const selectorList = enumList<Selector>(SELECTORS, 'selector', 'invalid-parameter');

const minHeadScaleProblem = (got: unknown): string =>
  `\`minHeadScale\` must be a number from ${MIN_HEAD_SCALE.min} to ${MIN_HEAD_SCALE.max}; got ${quoted(got)}.`;

/** `minHeadScale`: a number or numeric string in MIN_HEAD_SCALE; absent or empty → the default. */
export const minHeadScaleParam = z
  .union([z.number(), z.string()], { error: (iss) => minHeadScaleProblem(iss.input) })
  .nullish()
  .transform((v, ctx) => {
    if (v === undefined || v === null || v === '') return MIN_HEAD_SCALE.default as number;
    const n = typeof v === 'number' ? v : /^\s*[0-9.eE+-]+\s*$/.test(v) ? Number(v) : Number.NaN;
    if (!Number.isFinite(n) || n < MIN_HEAD_SCALE.min || n > MIN_HEAD_SCALE.max) {
      addProblem(ctx, 'invalid-parameter', minHeadScaleProblem(v), 'minHeadScale');
      return z.NEVER;
    }
    return n;
  })
  .describe(
    `Smallest face as a fraction of the shorter side, ${MIN_HEAD_SCALE.min} to ${MIN_HEAD_SCALE.max}; default ${MIN_HEAD_SCALE.default}.`,
  );

/** The one language captions and tags are written in. */
export const DESCRIPTION_LANGUAGE = 'en';

/**
 * `language` (Azure Analyze's parameter; its service also knows es, ja, pt and zh): picscan
 * describes images in English only, so `en` (any case) or nothing is accepted and any other
 * language is refused as the cloud service refuses one it lacks (NotSupportedLanguage), rather
 * than answered in English to a client that asked for Spanish.
 */
export const languageParam = z
  .string({ error: () => '`language` must be a language code such as "en".' })
  .nullish()
  .transform((v, ctx) => {
    const code = (v ?? '').trim().toLowerCase();
    if (code === '' || code === DESCRIPTION_LANGUAGE) return DESCRIPTION_LANGUAGE;
    addProblem(
      ctx,
      'unsupported-language',
      `The language ${quoted(v)} is not supported: captions and tags are written in English only (language=en).`,
      'language',
    );
    return z.NEVER;
  })
  .describe('Language of captions and tags: `en` only (the default); any other is refused with NotSupportedLanguage.');

/** Parameters of `ai/vision/analyze` after validation; `undefined` = not given (all). */
export interface AnalyzeRequest {
  image: string;
  features?: VisualFeature[];
  details?: Detail[];
}

/** The analysis options alone (no image): what the analyze service and a batch take. */
export type AnalyzeOptions = Omit<AnalyzeRequest, 'image'>;

/**
 * Features and details without the image (the CLI's flags, the analyze service's options).
 * `features` and its spelling `feature` are merged; each omitted list is `undefined` (all of
 * them) and an empty one is empty (none).
 */
export const analyzeOptionsSchema = z
  .object({
    features: featuresList
      .nullish()
      .describe(`Visual features to compute: comma-separated or a JSON array, any case, of ${VISUAL_FEATURES.join(', ')}; omitted → all.`),
    feature: featureList.nullish().describe('The spec’s other spelling of `features`; all spellings are merged.'),
    visualFeatures: visualFeaturesList.nullish().describe('Azure Analyze’s name of `features`; all spellings are merged.'),
    details: detailsList
      .nullish()
      .describe(`Domain-specific details: comma-separated or a JSON array, any case, of ${DETAILS.join(', ')}; omitted → both.`),
  })
  .transform(({ features, feature, visualFeatures, details }): AnalyzeOptions => {
    const out: AnalyzeOptions = {};
    if (features || feature || visualFeatures) out.features = mergedFeatures(features, feature, visualFeatures);
    if (details) out.details = details;
    return out;
  });

/**
 * Parameters of `/ai/vision/analyze`. As the cloud service, an empty list is as if omitted
 * (all features, both details).
 */
export const analyzeParamsSchema = z
  .object({ image: imageParam, ...analyzeOptionsSchema.in.shape, language: languageParam })
  .transform(({ image, features, feature, visualFeatures, details }): AnalyzeRequest => {
    const names = mergedFeatures(features, feature, visualFeatures);
    const req: AnalyzeRequest = { image };
    if (names.length > 0) req.features = names;
    if (details && details.length > 0) req.details = details;
    return req;
  });

/** Parameters of `ai/faces/detect` after validation, defaults applied. */
export interface DetectRequest {
  image: string;
  /** MIN_HEAD_SCALE.min..max */
  minHeadScale: number;
  /** Never empty (FRONTAL when none was given). */
  selector: Selector[];
}

/** Detect options without the image; selectors default to FRONTAL. */
export const detectOptionsSchema = z.object({
  minHeadScale: minHeadScaleParam,
  selector: selectorList
    .nullish()
    .transform((s): Selector[] => (s && s.length > 0 ? s : ['FRONTAL']))
    .describe(`Face search mode, comma-separated or a JSON array, any case, of ${SELECTORS.join(', ')}; default FRONTAL.`),
});

/** Parameters of `/ai/faces/detect` (and its alias `/ai/faces/train`). */
export const detectParamsSchema = z.object({ image: imageParam, ...detectOptionsSchema.shape });

/** Parameters of `ai/vision/thumbnail` after validation, defaults applied. */
export interface ThumbnailRequest {
  image: string;
  /** THUMBNAIL_SIDE_PX px */
  width: number;
  /** THUMBNAIL_SIDE_PX px */
  height: number;
  smartCropping: boolean;
}

const side = (name: 'width' | 'height') =>
  z
    .union([z.number(), z.string()], {
      error: (iss) => (iss.input === undefined || iss.input === null ? sideMissing(name) : sideProblem(name, iss.input)),
    })
    .transform((v, ctx) => {
      if (v === '') {
        addProblem(ctx, 'missing-parameter', sideMissing(name), name);
        return z.NEVER;
      }
      // Query strings carry numbers as text.
      const n = typeof v === 'number' ? v : /^\s*[0-9]+\s*$/.test(v) ? Number(v) : Number.NaN;
      if (!Number.isInteger(n) || n < THUMBNAIL_SIDE_PX.min || n > THUMBNAIL_SIDE_PX.max) {
        addProblem(ctx, 'invalid-parameter', sideProblem(name, v), name);
        return z.NEVER;
      }
      return n;
    })
    .describe(
      `${name === 'width' ? 'Width' : 'Height'} of the thumbnail in px, an integer from ${THUMBNAIL_SIDE_PX.min} to ${THUMBNAIL_SIDE_PX.max}.`,
    );

const sideMissing = (name: string): string =>
  `The required parameter \`${name}\` (an integer from ${THUMBNAIL_SIDE_PX.min} to ${THUMBNAIL_SIDE_PX.max}) is missing.`;

const sideProblem = (name: string, got: unknown): string =>
  `\`${name}\` is invalid: it must be an integer from ${THUMBNAIL_SIDE_PX.min} to ${THUMBNAIL_SIDE_PX.max}; got ${quoted(got)}.`;

/** `width`, `height` and `smartCropping` alone (the CLI's `export --size WxH [--smart]`). */
export const thumbnailOptionsSchema = z.object({
  width: side('width'),
  height: side('height'),
  smartCropping: z
    .union([z.boolean(), z.stringbool({ truthy: ['true'], falsy: ['false'], case: 'insensitive' })], {
      error: (iss) => `\`smartCropping\` is invalid: it must be true or false; got ${quoted(iss.input)}.`,
    })
    .nullish()
    .transform((v) => v ?? false)
    .describe('Crop around the faces, else the main subject, else the most salient region; default false (centre crop).'),
});

/** Parameters of `/ai/vision/thumbnail`; `image` is checked first (its problems have their own codes). */
export const thumbnailParamsSchema = z.object({ image: imageParam, ...thumbnailOptionsSchema.shape });

/**
 * Parses raw parameters with one of these schemas: the value, or the first problem as a wire
 * error (a missing `image` next to a `url` says which name this API uses).
 */
export function parseParams<S extends z.ZodType>(
  schema: S,
  raw: Record<string, unknown>,
): { ok: true; value: z.output<S> } | { ok: false; error: WireError } {
  // reportInput: a required parameter that is absent is `missing-parameter`, not a wrong type.
  const result = schema.safeParse(raw, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  const error = firstProblem(result.error);
  if (error.code === 'missing-parameter' && error.details?.parameter === 'image' && raw.url !== undefined)
    error.message = error.message.replace(/\.$/, ' (this API names it `image`, not `url`).');
  return { ok: false, error };
}
