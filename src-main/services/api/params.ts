import { AppError } from '../../core';
import { DETAILS, MIN_HEAD_SCALE, SELECTORS, VISUAL_FEATURES, type Detail, type Selector, type VisualFeature } from '../../shared/spec';

/** Parameters of `ai/vision/analyze` after validation; `undefined` = not given (service default). */
export interface AnalyzeRequest {
  image: string;
  features?: VisualFeature[];
  details?: Detail[];
}

/** Parameters of `ai/faces/detect` after validation, defaults applied. */
export interface DetectRequest {
  image: string;
  /** 0.015..0.5 */
  minHeadScale: number;
  selector: Selector[];
}

/** Raw parameters: a query string (strings, repeated keys as arrays) or a JSON body (any values). */
export type RawParams = Record<string, unknown>;

const BASE64ISH = /^[A-Za-z0-9+/=_-\s]{64,}$/;

/** The `image` parameter: a non-empty http(s)-looking string; base64, data URLs and uploads refused. */
export function parseImage(raw: RawParams): string {
  const v = raw.image;
  if (v === undefined || v === null || v === '') {
    const hint = raw.url !== undefined ? ' (this API names it `image`, not `url`)' : '';
    throw new AppError('missing-parameter', `The required parameter \`image\` (a public JPG or PNG URL) is missing${hint}.`, {
      details: { parameter: 'image' },
    });
  }
  if (typeof v !== 'string')
    throw new AppError('invalid-parameter', '`image` must be a string holding an image URL.', { details: { parameter: 'image' } });
  const s = v.trim();
  if (/^data:/i.test(s)) {
    throw new AppError('invalid-image-url', 'Data URLs are not accepted: pass a publicly accessible http(s) URL of a JPG or PNG image.', {
      details: { parameter: 'image' },
    });
  }
  if (!/^[a-z][a-z0-9+.-]*:/i.test(s) && BASE64ISH.test(s)) {
    throw new AppError(
      'invalid-image-url',
      'Base64-encoded images are not accepted: pass a publicly accessible http(s) URL of a JPG or PNG image.',
      {
        details: { parameter: 'image' },
      },
    );
  }
  return s;
}

/** A list parameter: comma-separated string, or (JSON) an array of strings. */
function listOf(v: unknown, name: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  const parts = Array.isArray(v) ? v : [v];
  const out: string[] = [];
  for (const p of parts) {
    if (typeof p !== 'string')
      throw new AppError('invalid-parameter', `\`${name}\` must be a comma-separated string.`, { details: { parameter: name } });
    out.push(
      ...p
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    );
  }
  return out.length === 0 ? undefined : out;
}

function pick<T extends string>(
  values: string[],
  allowed: readonly T[],
  name: string,
  code: 'unsupported-feature' | 'invalid-details' | 'invalid-parameter',
): T[] {
  const out: T[] = [];
  for (const value of values) {
    const hit = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
    if (!hit)
      throw new AppError(code, `"${value}" is not a valid \`${name}\` value; allowed: ${allowed.join(', ')}.`, {
        details: { parameter: name, value },
      });
    if (!out.includes(hit)) out.push(hit);
  }
  return out;
}

/** Validates analyze parameters; `features` and its spelling `feature` are merged. */
export function parseAnalyzeParams(raw: RawParams): AnalyzeRequest {
  const image = parseImage(raw);
  const names = [...(listOf(raw.features, 'features') ?? []), ...(listOf(raw.feature, 'feature') ?? [])];
  const details = listOf(raw.details, 'details');
  const req: AnalyzeRequest = { image };
  if (names.length > 0) req.features = pick(names, VISUAL_FEATURES, 'features', 'unsupported-feature');
  if (details) req.details = pick(details, DETAILS, 'details', 'invalid-details');
  return req;
}

/** Validates detect parameters and applies the defaults (0.015, FRONTAL). */
export function parseDetectParams(raw: RawParams): DetectRequest {
  const image = parseImage(raw);
  let minHeadScale: number = MIN_HEAD_SCALE.default;
  const m = raw.minHeadScale;
  if (m !== undefined && m !== null && m !== '') {
    const n = typeof m === 'number' ? m : typeof m === 'string' && /^\s*[0-9.eE+-]+\s*$/.test(m) ? Number(m) : Number.NaN;
    if (!Number.isFinite(n) || n < MIN_HEAD_SCALE.min || n > MIN_HEAD_SCALE.max) {
      throw new AppError(
        'invalid-parameter',
        `\`minHeadScale\` must be a number from ${MIN_HEAD_SCALE.min} to ${MIN_HEAD_SCALE.max}; got ${JSON.stringify(m)}.`,
        {
          details: { parameter: 'minHeadScale' },
        },
      );
    }
    minHeadScale = n;
  }
  const sel = listOf(raw.selector, 'selector');
  const selector = sel ? pick(sel, SELECTORS, 'selector', 'invalid-parameter') : (['FRONTAL'] as Selector[]);
  return { image, minHeadScale, selector };
}
