import { thumbnailFileName } from '../../services/export-thumbnails';
import type { ThumbnailService } from '../../services/thumbnail.service';
import type { SmartThumbnail } from '../../shared';
import type { ThumbnailsPort } from './handlers';

/**
 * The detail screen's smart-thumbnail download: the item's image (its URL or file, read again
 * with desktop intake) smart-cropped to the requested size. The models open on first use and
 * calls run one at a time (a click in the UI, not a batch). The service is the composition
 * root's to close.
 */
export function smartThumbnails(
  open: () => ThumbnailService,
  itemUrl: (itemId: number) => string,
): ThumbnailsPort & { close(): Promise<void> } {
  let queue: Promise<unknown> = Promise.resolve();
  const make = async (itemId: number, width: number, height: number): Promise<SmartThumbnail> => {
    const url = itemUrl(itemId);
    const t = await open().thumbnail(url, { width, height, smartCropping: true });
    return {
      fileName: thumbnailFileName({ itemId, url }, t.format),
      mimeType: t.mimeType,
      dataBase64: Buffer.from(t.data).toString('base64'),
      width: t.width,
      height: t.height,
    };
  };
  return {
    smart(itemId, width, height) {
      const next = queue.then(() => make(itemId, width, height));
      queue = next.catch(() => undefined);
      return next;
    },
    async close() {
      await queue;
    },
  };
}
