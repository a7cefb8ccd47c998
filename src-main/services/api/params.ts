/**
 * The image operations' parameters, parsed with the contract's schemas (`shared/contract`);
 * a problem becomes an `AppError` with the schema's error code, so every transport maps it the
 * same way (Azure codes for analyze, Kairos ErrCodes for detect).
 */
import type { z } from 'zod';
import { AppError } from '../../core';
import {
  analyzeOptionsSchema,
  analyzeParamsSchema,
  detectParamsSchema,
  parseParams,
  thumbnailOptionsSchema,
  thumbnailParamsSchema,
  type AnalyzeOptions,
  type AnalyzeRequest,
  type DetectRequest,
  type ThumbnailRequest,
} from '../../shared/contract';

export type { AnalyzeOptions, AnalyzeRequest, DetectRequest, ThumbnailRequest };

/** Raw parameters: a query string (strings, repeated keys as arrays) or a JSON body (any values). */
export type RawParams = Record<string, unknown>;

/** Parses with a contract schema; the first problem is thrown as an `AppError`. */
export function parseOrThrow<S extends z.ZodType>(schema: S, raw: RawParams): z.output<S> {
  const parsed = parseParams(schema, raw);
  if (!parsed.ok) throw new AppError(parsed.error.code, parsed.error.message, { details: parsed.error.details });
  return parsed.value;
}

/** Validates analyze parameters; `features` and its spelling `feature` are merged. */
export const parseAnalyzeParams = (raw: RawParams): AnalyzeRequest => parseOrThrow(analyzeParamsSchema, raw);

/** Validates analyze options without an image (omitted list → all, empty list → none). */
export const parseAnalyzeOptions = (raw: RawParams): AnalyzeOptions => parseOrThrow(analyzeOptionsSchema, raw);

/** Validates detect parameters and applies the defaults (MIN_HEAD_SCALE.default, FRONTAL). */
export const parseDetectParams = (raw: RawParams): DetectRequest => parseOrThrow(detectParamsSchema, raw);

/** Validates thumbnail parameters; every problem except `image`'s is `invalid-parameter` or `missing-parameter`. */
export const parseThumbnailParams = (raw: RawParams): ThumbnailRequest => parseOrThrow(thumbnailParamsSchema, raw);

/** Validates `width`, `height` and `smartCropping` alone (the CLI's `export --size WxH [--smart]`). */
export const parseThumbnailOptions = (raw: RawParams): Omit<ThumbnailRequest, 'image'> => parseOrThrow(thumbnailOptionsSchema, raw);
