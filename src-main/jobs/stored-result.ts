import { analyzeColumns, detectColumns, type NewResult } from '../store';
import type { FetchedImage, ProcessedImage } from './types';

/** The rows to store for one processed image: the full spec response plus its indexed columns. */
export function storedResult(r: {
  itemId: number;
  batchId: number;
  opKey: string;
  /** What of the fetched image is stored (a distributed worker sends only these). */
  image: Pick<FetchedImage, 'sha256' | 'metadata' | 'thumbnail'>;
  processed: ProcessedImage;
  analyzeMs: number;
}): NewResult {
  const { image, processed } = r;
  const facts = image.metadata;
  return {
    itemId: r.itemId,
    batchId: r.batchId,
    sha256: image.sha256,
    opKey: r.opKey,
    response: processed.kind === 'analyze' ? processed.data : processed.response,
    columns: processed.kind === 'analyze' ? analyzeColumns(processed.data, facts) : detectColumns(processed.response, facts),
    thumbnail: { mime: image.thumbnail.mimeType, bytes: image.thumbnail.data },
    analyzeMs: r.analyzeMs,
  };
}
