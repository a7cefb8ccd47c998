import type { Readable } from 'node:stream';
import { readUrlList, type ListFormat } from '../jobs';
import type { ItemsRepo, NewItem } from '../store';

/** Counts of one import (see BatchImportReport); the UI's preview of the same list counts the same. */
export interface ImportCounts {
  lines: number;
  items: number;
  duplicates: number;
  invalid: number;
}

const CHUNK = 5_000;

/**
 * Streams a list into a batch's items in chunked transactions, so memory holds one chunk
 * however long the list is. Duplicates (same normalised URL, or same text when invalid) collapse
 * on the (batch_id, url) unique index. A chunk holds only valid or only invalid entries, so the
 * rows the index kept tell how many distinct invalid items there are, in line order. `baseDir`
 * reads relative paths against that folder (`readUrlList`).
 */
export async function importList(
  items: ItemsRepo,
  batchId: number,
  source: Readable,
  format: ListFormat,
  signal?: AbortSignal,
  baseDir?: string,
): Promise<ImportCounts> {
  const counts: ImportCounts = { lines: 0, items: 0, duplicates: 0, invalid: 0 };
  // Destroying the source also ends a read that waits for more input (a terminal, a slow pipe).
  const abort = (): void => void source.destroy(signal?.reason as Error);
  signal?.addEventListener('abort', abort, { once: true });
  let chunk: NewItem[] = [];
  const flush = (): void => {
    if (chunk.length === 0) return;
    const added = items.insertMany(batchId, chunk);
    counts.items += added;
    counts.duplicates += chunk.length - added;
    if (chunk[0]?.error) counts.invalid += added;
    chunk = [];
  };
  try {
    for await (const entry of readUrlList(source, format, baseDir)) {
      signal?.throwIfAborted(); // entries already read are not imported after an abort
      counts.lines++;
      if (chunk.length >= CHUNK || (chunk.length > 0 && !chunk[0]?.error !== !entry.error)) flush();
      chunk.push(entry);
    }
  } finally {
    signal?.removeEventListener('abort', abort);
  }
  signal?.throwIfAborted();
  flush();
  return counts;
}
