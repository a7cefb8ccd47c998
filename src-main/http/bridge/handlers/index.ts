import { AppError } from '../../../core';
import type { BackendChannel, HandlerEntry, HandlerTable, Req, Res } from '../../../shared';
import type { ApiDeps } from './deps';
import { parseRequest } from './parse';

export type { ApiDeps, BatchesPort, ResultsPort, SettingsPort, GalleriesPort, ThumbnailsPort } from './deps';
export { filterSchema } from './parse';

function entry<C extends BackendChannel>(channel: C, run: (req: Req<C>) => Promise<Res<C>>): HandlerEntry<C> {
  return { parse: (raw) => parseRequest(channel, raw), run };
}

const notInThisBuild = (what: string): AppError => new AppError('invalid-input', `${what} is not available in this build of picscan.`);

/**
 * The typed API over the services: one handler per contract channel, shared by the Electron IPC
 * bridge and the web-mode HTTP bridge. A mapped type makes a missing channel a compile error.
 */
export function createApiHandlers(deps: ApiDeps): HandlerTable {
  const { batches, results } = deps;
  return {
    'app:info': entry('app:info', async () => ({ name: 'picscan', ...deps.info })),
    'batches:list': entry('batches:list', () => batches.list()),
    'batches:get': entry('batches:get', (r) => batches.get(r.batchId)),
    'batches:create': entry('batches:create', (r) => batches.create(r)),
    'batches:pause': entry('batches:pause', (r) => batches.pause(r.batchId)),
    'batches:resume': entry('batches:resume', (r) => batches.resume(r.batchId)),
    'batches:retry-failed': entry('batches:retry-failed', (r) => batches.retryFailed(r.batchId)),
    'batches:cancel': entry('batches:cancel', (r) => batches.cancel(r.batchId)),
    'batches:delete': entry('batches:delete', (r) => batches.remove(r.batchId)),
    'batches:progress': entry('batches:progress', () => batches.progress()),
    'results:page': entry('results:page', (r) => results.page(r)),
    'results:facets': entry('results:facets', (r) => results.facets(r.filter)),
    'results:get': entry('results:get', (r) => results.get(r.itemId)),
    'results:reanalyze': entry('results:reanalyze', (r) => results.reanalyze(r.itemId)),
    'results:smart-thumbnail': entry('results:smart-thumbnail', async (r) => {
      if (!deps.thumbnails) throw notInThisBuild('Thumbnails');
      return deps.thumbnails.smart(r.itemId, r.width, r.height);
    }),
    'settings:get': entry('settings:get', () => deps.settings.get()),
    'settings:update': entry('settings:update', (r) => deps.settings.update(r)),
    'server:status': entry('server:status', () => deps.server.status()),
    'galleries:list': entry('galleries:list', async () => (deps.galleries ? deps.galleries.list() : { available: false, entries: [] })),
    'galleries:add': entry('galleries:add', async (r) => {
      if (!deps.galleries) throw notInThisBuild('Galleries');
      return deps.galleries.add(r);
    }),
    'galleries:remove': entry('galleries:remove', async (r) => {
      if (!deps.galleries) throw notInThisBuild('Galleries');
      return deps.galleries.remove(r.id);
    }),
  };
}
