/**
 * The request schema of every UI channel (the Electron IPC and the web-mode bridge parse with
 * it; the renderer's forms validate with the same schemas before sending). Renderer input is
 * untrusted: every request is checked before a use case sees it.
 */
import { z } from 'zod';
import type { WireError } from '../errors';
import type { Channel, Req } from '../index'; // (`../ipc` reads as the ipc layer to the import-direction lint)
import { createBatchSchema } from './batch';
import { galleryAddSchema } from './gallery';
import { THUMBNAIL_SIDE_PX } from './limits';
import { issueList } from './problems';
import { filterSchema, idSchema, resultsPageSchema } from './results';
import { settingsUpdateSchema } from './settings';

const byBatch = z.object({ batchId: idSchema }).strict();
const byItem = z.object({ itemId: idSchema }).strict();
const none = z
  .undefined()
  .or(z.null())
  .transform(() => undefined);
const thumbSide = z.number().int().min(THUMBNAIL_SIDE_PX.min).max(THUMBNAIL_SIDE_PX.max);

/** Channel → request schema; a channel without one fails to compile. */
export const CHANNEL_SCHEMAS: { [C in Channel]: z.ZodType<Req<C>, unknown> } = {
  'app:info': none,
  'batches:list': none,
  'batches:get': byBatch,
  'batches:create': createBatchSchema,
  'batches:pause': byBatch,
  'batches:resume': byBatch,
  'batches:retry-failed': byBatch,
  'batches:cancel': byBatch,
  'batches:delete': byBatch,
  'batches:progress': none,
  'results:page': resultsPageSchema,
  'results:facets': z.object({ filter: filterSchema }).strict(),
  'results:get': byItem,
  'results:reanalyze': byItem,
  'results:smart-thumbnail': z.object({ itemId: idSchema, width: thumbSide, height: thumbSide }).strict(),
  'export:save': z.object({ filter: filterSchema, format: z.enum(['csv', 'json', 'ndjson']) }).strict(),
  'settings:get': none,
  'settings:update': settingsUpdateSchema,
  'server:status': none,
  'galleries:list': none,
  'galleries:add': galleryAddSchema,
  'galleries:remove': z.object({ id: idSchema }).strict(),
};

/**
 * Checks a channel's request: the parsed value, or an `invalid-input` wire error naming every
 * bad field (`Invalid <channel> request (<path>: <problem>; …).`).
 */
export function checkRequest<C extends Channel>(channel: C, raw: unknown): { ok: true; value: Req<C> } | { ok: false; error: WireError } {
  const result = (CHANNEL_SCHEMAS[channel] as z.ZodType<Req<C>, unknown>).safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: { code: 'invalid-input', message: `Invalid ${channel} request (${issueList(result.error)}).` } };
}
