import type { BatchRecord } from '../store';
import type { BatchOptions, BatchSummary } from '../shared/batch';
import { batchRunOptionsSchema } from '../shared/contract';
import { parseOrThrow } from './api/params';

/** A stored batch as adapters see it (without its run settings). */
export function toSummary(b: BatchRecord): BatchSummary {
  const { downloadConcurrency: _d, analysisConcurrency: _a, importComplete, deleteStarted, ...summary } = b;
  // Said on the summary: a half-deleted or half-imported batch must not look like a whole one.
  const unfinished = deleteStarted ? 'delete' : importComplete ? undefined : 'import';
  return unfinished ? { ...summary, unfinished } : summary;
}

/** Checks options from an adapter with the contract's batch schema; throws `invalid-parameter`. */
export function validateOptions(o: BatchOptions): void {
  parseOrThrow(batchRunOptionsSchema, o as unknown as Record<string, unknown>);
}
