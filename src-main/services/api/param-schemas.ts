import { z } from 'zod';
import { DETAILS, MIN_HEAD_SCALE, SELECTORS, VISUAL_FEATURES } from '../../shared/spec';

/**
 * zod schemas of the analyze and detect parameters, built from the same constants their parsers
 * (`params.ts`) check against, for the OpenAPI document. The parsers keep their own checks
 * because each problem has its own spec error code (features → NotSupportedVisualFeature,
 * details → InvalidDetails, …) and values are matched in any case.
 */
const imageParam = z.string().describe('Public http(s) URL of a JPG or PNG image. Data URLs, Base64 and uploads are refused.');

/** A comma-separated list (query string or JSON) or a JSON array of strings. */
const listParam = (allowed: readonly string[], what: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe(`${what}: comma-separated or a JSON array, any case, of ${allowed.join(', ')}.`);

/** Parameters of `/ai/vision/analyze`. */
export const analyzeParamsSchema = z.object({
  image: imageParam,
  features: listParam(VISUAL_FEATURES, 'Visual features to compute; omitted → all'),
  feature: listParam(VISUAL_FEATURES, 'The spec’s other spelling of `features`; both are merged'),
  details: listParam(DETAILS, 'Domain-specific details'),
});

/** Parameters of `/ai/faces/detect` (and its alias `/ai/faces/train`). */
export const detectParamsSchema = z.object({
  image: imageParam,
  minHeadScale: z
    .union([z.number().min(MIN_HEAD_SCALE.min).max(MIN_HEAD_SCALE.max), z.string().regex(/^\s*[0-9.eE+-]+\s*$/)])
    .optional()
    .describe(
      `Smallest face as a fraction of the shorter side, ${MIN_HEAD_SCALE.min} to ${MIN_HEAD_SCALE.max}; default ${MIN_HEAD_SCALE.default}.`,
    ),
  selector: listParam(SELECTORS, 'Face search mode; default FRONTAL'),
});
