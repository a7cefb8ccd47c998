/**
 * `export --thumbnails`: one thumbnail file per done item of a batch export, named so that it
 * maps back to its item (`<item id>-<source name>.<jpg|png>`); the export then lists the file
 * names (CSV column `thumbnail`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { toWireError } from '../core';
import type { ExportFormat, ResultFilter } from '../shared/batch';
import type { WireError } from '../shared/errors';
import type { ExportOptions } from './export.service';
import type { ThumbnailOptions, ThumbnailService } from './thumbnail.service';
import type { ThumbnailFormat } from './thumbnail/encode';

/** A done item to make a thumbnail of. */
export interface ThumbnailItem {
  itemId: number;
  url: string;
}

/** What `writeThumbnails` made: file name (inside the folder) per item id, and the items that failed. */
export interface ThumbnailExport {
  files: Map<number, string>;
  failures: Array<{ itemId: number; url: string; error: WireError }>;
}

/** Longest source-name part of a thumbnail file name, characters. */
const MAX_NAME_CHARS = 40;

/**
 * The file name of an item's thumbnail: the item id (unique in the batch), then the source's
 * last path segment without extension, reduced to `[A-Za-z0-9._-]`, then the format's extension.
 *
 * @example
 * thumbnailFileName({ itemId: 17, url: 'https://example.com/photos/Cat%20One.jpeg?x=1' }, 'Jpeg'); // '17-Cat_One.jpg'
 */
export function thumbnailFileName(item: ThumbnailItem, format: ThumbnailFormat): string {
  let last = item.url.split(/[?#]/)[0]!.split(/[/\\]/).pop() ?? '';
  try {
    last = decodeURIComponent(last);
  } catch {
    // Not percent-encoded text: keep it as it is.
  }
  const stem = last
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, MAX_NAME_CHARS);
  return `${item.itemId}${stem ? `-${stem}` : ''}.${format === 'Jpeg' ? 'jpg' : 'png'}`;
}

/** The done items matching `filter`, read through the batch service's own NDJSON export (streamed, ids and URLs only). */
export async function doneItems(
  batches: { export(filter: ResultFilter, format: ExportFormat, out: Writable, opts?: ExportOptions): Promise<number> },
  filter: ResultFilter,
): Promise<ThumbnailItem[]> {
  const items: ThumbnailItem[] = [];
  let rest = '';
  const take = (line: string): void => {
    if (line.trim() === '') return;
    const row = JSON.parse(line) as { itemId: number; url: string; status: string };
    if (row.status === 'done') items.push({ itemId: row.itemId, url: row.url });
  };
  const sink = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      lines.forEach(take);
      done();
    },
  });
  await batches.export(filter, 'ndjson', sink);
  take(rest);
  return items;
}

/**
 * Makes and writes one thumbnail per item into `dir` (created if needed), one at a time (the
 * models already use the cores). An item whose image can no longer be read is reported in
 * `failures` and gets no file; the others go on.
 */
export async function writeThumbnails(
  items: readonly ThumbnailItem[],
  thumbnails: ThumbnailService,
  dir: string,
  opts: ThumbnailOptions,
  onProgress?: (done: number, total: number) => void,
): Promise<ThumbnailExport> {
  await mkdir(dir, { recursive: true });
  const result: ThumbnailExport = { files: new Map(), failures: [] };
  for (const [i, item] of items.entries()) {
    try {
      const t = await thumbnails.thumbnail(item.url, opts);
      const name = thumbnailFileName(item, t.format);
      await writeFile(join(dir, name), t.data);
      result.files.set(item.itemId, name);
    } catch (err) {
      result.failures.push({ ...item, error: toWireError(err) });
    }
    onProgress?.(i + 1, items.length);
  }
  return result;
}
