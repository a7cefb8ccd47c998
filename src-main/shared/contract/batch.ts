/** Batch options (`batches:create`, the CLI's `picscan batch`, the New batch form). */
import { z } from 'zod';
import type { BatchOptions } from '../batch';
import { DETAILS, SELECTORS, VISUAL_FEATURES } from '../spec';
import {
  ANALYSIS_CONCURRENCY,
  BATCH_NAME_MAX_CHARS,
  DOWNLOAD_CONCURRENCY,
  MIN_HEAD_SCALE,
  SERVICE_URL_MAX_CHARS,
  URL_LIST_MAX_CHARS,
} from './limits';
import { addProblem } from './problems';

/** An integer option within `{ min, max }`, named in its problem. */
export const boundedInt = (name: string, bounds: { readonly min: number; readonly max: number }) =>
  z.number().superRefine((v, ctx) => {
    if (!Number.isInteger(v) || v < bounds.min || v > bounds.max)
      addProblem(ctx, 'invalid-parameter', `${name} must be an integer from ${bounds.min} to ${bounds.max}.`, name);
  });

/** Concurrent downloads per batch. */
export const downloadConcurrency = boundedInt('downloadConcurrency', DOWNLOAD_CONCURRENCY);
/** Concurrent analyses per batch. */
export const analysisConcurrency = boundedInt('analysisConcurrency', ANALYSIS_CONCURRENCY);

/** Where a batch runs. */
export const backendSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }).strict(),
  z
    .object({
      kind: z.literal('remote'),
      baseUrl: z.url({ protocol: /^https?$/ }).max(SERVICE_URL_MAX_CHARS),
      method: z.enum(['GET', 'POST']).optional(),
    })
    .strict(),
  // The UI picks distributed workers; the Redis address comes from Settings, the queue key is new.
  z.object({ kind: z.literal('distributed'), redisUrl: z.literal(''), queueKey: z.literal('') }).strict(),
]);

const minHeadScale = z.number().superRefine((v, ctx) => {
  if (!(v >= MIN_HEAD_SCALE.min && v <= MIN_HEAD_SCALE.max))
    addProblem(ctx, 'invalid-parameter', `minHeadScale must be from ${MIN_HEAD_SCALE.min} to ${MIN_HEAD_SCALE.max}.`, 'minHeadScale');
});
const detectOperation = z.object({ kind: z.literal('detect'), minHeadScale, selector: z.array(z.enum(SELECTORS)) }).strict();
const analyzeOperation = (minFeatures: number) =>
  z
    .object({ kind: z.literal('analyze'), features: z.array(z.enum(VISUAL_FEATURES)).min(minFeatures), details: z.array(z.enum(DETAILS)) })
    .strict();

/** What a batch runs on each image: the analyze options or detect's. */
export const operationSchema = z.discriminatedUnion('kind', [analyzeOperation(0), detectOperation]);

/** A batch name: trimmed, not empty. */
export const batchName = z
  .string()
  .trim()
  .superRefine((v, ctx) => {
    if (v === '') addProblem(ctx, 'invalid-parameter', 'A batch needs a name.', 'name');
  })
  .pipe(z.string().max(BATCH_NAME_MAX_CHARS));

/**
 * What the batch service checks of every adapter's options: name, operation and concurrency.
 * The backend is the adapter's own (the CLI fills in a Redis URL and a queue key, the UI leaves
 * them to Settings), so it is not checked here.
 */
export const batchRunOptionsSchema = z.looseObject({
  name: batchName,
  operation: operationSchema,
  downloadConcurrency: downloadConcurrency.optional(),
  analysisConcurrency: analysisConcurrency.optional(),
});

/** The options of a new batch from the UI (`batches:create`): at least one feature, the UI's backends. */
export const batchOptionsSchema: z.ZodType<BatchOptions, unknown> = z
  .object({
    ...batchRunOptionsSchema.shape,
    operation: z.discriminatedUnion('kind', [analyzeOperation(1), detectOperation]),
    backend: backendSchema,
  })
  .strict();

/** A URL list as the user gave it. */
export const urlListInputSchema = z.object({ text: z.string().max(URL_LIST_MAX_CHARS), format: z.enum(['txt', 'csv']) }).strict();

/** `batches:create`: the list plus the options. */
export const createBatchSchema = z.object({ list: urlListInputSchema, options: batchOptionsSchema }).strict();
