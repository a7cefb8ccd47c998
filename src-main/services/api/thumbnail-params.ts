import { z } from 'zod';
import { AppError } from '../../core';
import { parseImage, type RawParams } from './params';

/** Thumbnail side limits, px (both `width` and `height`). */
export const THUMBNAIL_SIDE_PX = { min: 1, max: 1024 } as const;

/** Parameters of `ai/vision/thumbnail` after validation, defaults applied. */
export interface ThumbnailRequest {
  image: string;
  /** 1..1024 px */
  width: number;
  /** 1..1024 px */
  height: number;
  smartCropping: boolean;
}

const side = (name: string) =>
  z
    .union([
      z.int().min(THUMBNAIL_SIDE_PX.min).max(THUMBNAIL_SIDE_PX.max),
      // Query strings carry numbers as text.
      z
        .string()
        .regex(/^\s*[0-9]+\s*$/)
        .transform(Number)
        .pipe(z.int().min(THUMBNAIL_SIDE_PX.min).max(THUMBNAIL_SIDE_PX.max)),
    ])
    .describe(`${name} of the thumbnail in px, an integer from ${THUMBNAIL_SIDE_PX.min} to ${THUMBNAIL_SIDE_PX.max}.`);

/**
 * The thumbnail parameters (query string or JSON body): the one schema the parser validates
 * with and the OpenAPI document describes. `image` is checked first by `parseImage` (missing,
 * data URL, Base64 each have their own code), the rest by this schema.
 */
export const thumbnailParamsSchema = z.object({
  image: z.string().describe('Public http(s) URL of a JPG or PNG image (the same intake rules as analyze).'),
  width: side('Width'),
  height: side('Height'),
  smartCropping: z
    .union([z.boolean(), z.stringbool({ truthy: ['true'], falsy: ['false'], case: 'insensitive' })])
    .default(false)
    .describe('Crop around the faces, else the main subject, else the most salient region; default false (centre crop).'),
});

/** Validates thumbnail parameters; every problem except `image`'s is `invalid-parameter` naming the parameter. */
export function parseThumbnailParams(raw: RawParams): ThumbnailRequest {
  const image = parseImage(raw);
  return { image, ...parseThumbnailOptions(raw) };
}

/** Validates `width`, `height` and `smartCropping` alone (the CLI's `export --size WxH [--smart]`). */
export function parseThumbnailOptions(raw: RawParams): Omit<ThumbnailRequest, 'image'> {
  for (const name of ['width', 'height'] as const) {
    if (raw[name] === undefined || raw[name] === null || raw[name] === '')
      throw new AppError('missing-parameter', `The required parameter \`${name}\` (an integer from 1 to 1024) is missing.`, {
        details: { parameter: name },
      });
  }
  const parsed = thumbnailParamsSchema.omit({ image: true }).safeParse({ ...raw, smartCropping: raw.smartCropping ?? undefined });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'parameters');
    throw new AppError('invalid-parameter', `\`${name}\` is invalid: ${describe(name, raw[name])}.`, { details: { parameter: name } });
  }
  return parsed.data;
}

function describe(name: string, value: unknown): string {
  const got = `got ${JSON.stringify(value)}`;
  if (name === 'width' || name === 'height')
    return `it must be an integer from ${THUMBNAIL_SIDE_PX.min} to ${THUMBNAIL_SIDE_PX.max}; ${got}`;
  if (name === 'smartCropping') return `it must be true or false; ${got}`;
  return got;
}
