import { z } from 'zod';
import { AppError } from '../../../core';
import { THUMBNAIL_SIDE_PX } from '../../../services/api';
import { COLOR_NAMES, DETAILS, SELECTORS, VISUAL_FEATURES, type Channel, type Req } from '../../../shared';

// Renderer input is untrusted: every request is checked here before a use case sees it.

const id = z.number().int().positive();
const score = z.number().min(0).max(1);
const itemStatus = z.enum(['queued', 'fetching', 'analyzing', 'done', 'failed', 'skipped']);

const backend = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }).strict(),
  z
    .object({ kind: z.literal('remote'), baseUrl: z.url({ protocol: /^https?$/ }).max(2000), method: z.enum(['GET', 'POST']).optional() })
    .strict(),
  // The UI picks distributed workers; the Redis address comes from Settings, the queue key is new.
  z.object({ kind: z.literal('distributed'), redisUrl: z.literal(''), queueKey: z.literal('') }).strict(),
]);

const operation = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('analyze'), features: z.array(z.enum(VISUAL_FEATURES)).min(1), details: z.array(z.enum(DETAILS)) }).strict(),
  z.object({ kind: z.literal('detect'), minHeadScale: z.number().min(0.015).max(0.5), selector: z.array(z.enum(SELECTORS)) }).strict(),
]);

export const filterSchema = z
  .object({
    batchId: id,
    status: z.array(itemStatus),
    tags: z.array(z.string().max(200)).max(50),
    tagMinConfidence: score,
    categories: z.array(z.string().max(200)).max(50),
    minFaces: z.number().int().min(0),
    maxFaces: z.number().int().min(0),
    maxAdult: score,
    minAdult: score,
    maxRacy: score,
    minRacy: score,
    colors: z.array(z.enum(COLOR_NAMES)),
    isBW: z.boolean(),
    minClipArt: z.number().int().min(0).max(3),
    lineDrawing: z.boolean(),
    celebrity: z.string().max(200),
    landmark: z.string().max(200),
    captionText: z.string().max(500),
  })
  .partial()
  .strict();

const serverPrefs = z.object({ enabled: z.boolean(), host: z.string().min(1).max(255), port: z.number().int().min(0).max(65535) }).strict();
const byBatch = z.object({ batchId: id }).strict();
const byItem = z.object({ itemId: id }).strict();
const none = z
  .undefined()
  .or(z.null())
  .transform(() => undefined);

const schemas: { [C in Channel]: z.ZodType<Req<C>, unknown> } = {
  'app:info': none,
  'batches:list': none,
  'batches:get': byBatch,
  'batches:create': z
    .object({
      list: z.object({ text: z.string().max(512 * 1024 * 1024), format: z.enum(['txt', 'csv']) }).strict(),
      options: z
        .object({
          name: z.string().trim().min(1).max(200),
          operation,
          backend,
          downloadConcurrency: z.number().int().min(1).max(256).optional(),
          analysisConcurrency: z.number().int().min(1).max(64).optional(),
        })
        .strict(),
    })
    .strict(),
  'batches:pause': byBatch,
  'batches:resume': byBatch,
  'batches:cancel': byBatch,
  'batches:delete': byBatch,
  'batches:progress': none,
  'results:page': z
    .object({
      filter: filterSchema,
      sort: z.enum(['id', 'faces', 'adult', 'racy', 'caption']).optional(),
      order: z.enum(['asc', 'desc']).optional(),
      offset: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(500).optional(),
    })
    .strict(),
  'results:facets': z.object({ filter: filterSchema }).strict(),
  'results:get': byItem,
  'results:reanalyze': byItem,
  'results:smart-thumbnail': z
    .object({
      itemId: z.number().int().positive(),
      width: z.number().int().min(THUMBNAIL_SIDE_PX.min).max(THUMBNAIL_SIDE_PX.max),
      height: z.number().int().min(THUMBNAIL_SIDE_PX.min).max(THUMBNAIL_SIDE_PX.max),
    })
    .strict(),
  'export:save': z.object({ filter: filterSchema, format: z.enum(['csv', 'json', 'ndjson']) }).strict(),
  'settings:get': none,
  'settings:update': z
    .object({
      backend,
      remoteKey: z.string().min(1).max(500).nullable(),
      redisUrl: z.string().trim().min(1).max(2000).nullable(),
      downloadConcurrency: z.number().int().min(1).max(256),
      analysisConcurrency: z.number().int().min(1).max(64),
      modelThreads: z.number().int().min(1).max(64),
      server: serverPrefs,
    })
    .partial()
    .strict(),
  'server:status': none,
  'galleries:list': none,
  'galleries:add': z.discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('person'),
        name: z.string().trim().min(1).max(200),
        images: z.array(z.string().trim().min(1).max(4000)).min(1).max(50),
        faceNumber: z.number().int().min(1).max(100).optional(),
      })
      .strict(),
    z
      .object({
        kind: z.literal('place'),
        name: z.string().trim().min(1).max(200),
        images: z.array(z.string().trim().min(1).max(4000)).min(1).max(50),
        latitude: z.number().min(-90).max(90),
        longitude: z.number().min(-180).max(180),
        mid: z.string().trim().max(200).optional(),
      })
      .strict(),
  ]),
  'galleries:remove': z.object({ id }).strict(),
};

/** Parses a channel's raw request, or throws `invalid-input` naming the bad fields. */
export function parseRequest<C extends Channel>(channel: C, raw: unknown): Req<C> {
  const result = (schemas[channel] as z.ZodType<Req<C>, unknown>).safeParse(raw);
  if (result.success) return result.data;
  const where = result.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ');
  throw new AppError('invalid-input', `Invalid ${channel} request (${where}).`);
}
