import type { Readable } from 'node:stream';
import { readUrlList, type ListFormat } from '../jobs';
import type { ItemsRepo, NewItem } from '../store';

/** Counts of one import (see BatchImportReport). */
export interface ImportCounts {
  lines: number;
  items: number;
  duplicates: number;
  invalid: number;
}

const CHUNK = 5_000;

/**
 * Streams a list into a batch's items in chunked transactions, so memory holds one chunk
 * however long the list is. Duplicate URLs collapse on the (batch_id, url) unique index.
 */
export async function importList(items: ItemsRepo, batchId: number, source: Readable, format: ListFormat): Promise<ImportCounts> {
  const counts: ImportCounts = { lines: 0, items: 0, duplicates: 0, invalid: 0 };
  let chunk: NewItem[] = [];
  const flush = (): void => {
    if (chunk.length === 0) return;
    const added = items.insertMany(batchId, chunk);
    counts.items += added;
    counts.duplicates += chunk.length - added;
    chunk = [];
  };
  for await (const entry of readUrlList(source, format)) {
    counts.lines++;
    if (entry.error) counts.invalid++;
    chunk.push(entry);
    if (chunk.length >= CHUNK) flush();
  }
  flush();
  return counts;
}
