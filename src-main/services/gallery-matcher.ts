/** The galleries of the app database as analyze's celebrity and landmark matcher. */
import { existsSync } from 'node:fs';
import type { GalleryMatcher } from '../analysis';
import { openMigrated, type Db } from '../store';
import { GalleryService, type GalleryServiceDeps } from './gallery.service';

/** The galleries of the app database as analyze's matcher, plus `close()`. */
export interface OpenGalleryMatcher {
  matcher: Required<GalleryMatcher>;
  close(): Promise<void>;
}

/**
 * The matcher for an analyze service that already has an engine. The database is reached on the
 * first match call, and only if the file exists (no database means no enrolled entries): analyze
 * calls without details, or on a machine without galleries, never create or touch it. With
 * `shared`, the caller's open connection is used (and stays the caller's to close); without it,
 * the matcher opens its own (a worker thread) and closes it.
 */
export function openGalleryMatcher(dbPath: string, engine: GalleryServiceDeps['engine'], shared?: () => Db): OpenGalleryMatcher {
  let opened: { db: Db; own: boolean; service: GalleryService } | null | undefined;
  const current = (): GalleryService | null => {
    if (opened === undefined) {
      if (!existsSync(dbPath)) return null; // checked again on the next call: it may appear later
      const db = shared ? shared() : openMigrated(dbPath);
      opened = { db, own: !shared, service: new GalleryService({ db, engine }) };
    }
    return opened?.service ?? null;
  };
  return {
    matcher: {
      matchCelebrities: async (img, faces, signal) => (await current()?.matcher().matchCelebrities(img, faces, signal)) ?? [],
      matchLandmarks: async (img, signal) => (await current()?.matcher().matchLandmarks(img, signal)) ?? { details: [] },
    },
    async close() {
      if (opened) {
        await opened.service.dispose();
        if (opened.own) opened.db.close();
      }
      opened = null;
    },
  };
}
