/** Result queries: the filter panel, the results grid, exports. */
import { z } from 'zod';
import type { ResultFilter } from '../batch';
import { COLOR_NAMES } from '../spec';
import { CAPTION_QUERY_MAX_CHARS, CLIP_ART_TYPE, FILTER_LIST, RESULTS_PAGE_SIZE } from './limits';

/** A positive row id. */
export const idSchema = z.number().int().positive();
const score = z.number().min(0).max(1);
const itemStatus = z.enum(['queued', 'fetching', 'analyzing', 'done', 'failed', 'skipped']);
const words = z.array(z.string().max(FILTER_LIST.maxChars)).max(FILTER_LIST.maxEntries);

/** A result filter; every field optional. */
export const filterSchema: z.ZodType<ResultFilter, unknown> = z
  .object({
    batchId: idSchema,
    status: z.array(itemStatus),
    tags: words,
    tagMinConfidence: score,
    categories: words,
    minFaces: z.number().int().min(0),
    maxFaces: z.number().int().min(0),
    maxAdult: score,
    minAdult: score,
    maxRacy: score,
    minRacy: score,
    colors: z.array(z.enum(COLOR_NAMES)),
    isBW: z.boolean(),
    minClipArt: z.number().int().min(CLIP_ART_TYPE.min).max(CLIP_ART_TYPE.max),
    lineDrawing: z.boolean(),
    celebrity: z.string().max(FILTER_LIST.maxChars),
    landmark: z.string().max(FILTER_LIST.maxChars),
    captionText: z.string().max(CAPTION_QUERY_MAX_CHARS),
  })
  .partial()
  .strict();

/** One page of results. */
export const resultsPageSchema = z
  .object({
    filter: filterSchema,
    sort: z.enum(['id', 'faces', 'adult', 'racy', 'caption']).optional(),
    order: z.enum(['asc', 'desc']).optional(),
    offset: z.number().int().min(0).optional(),
    limit: z.number().int().min(RESULTS_PAGE_SIZE.min).max(RESULTS_PAGE_SIZE.max).optional(),
  })
  .strict();
