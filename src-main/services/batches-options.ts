import { AppError } from '../core';
import type { BatchRecord } from '../store';
import type { BatchOptions, BatchSummary } from '../shared/batch';

/** A stored batch as adapters see it (without its run settings). */
export function toSummary(b: BatchRecord): BatchSummary {
  const { downloadConcurrency: _d, analysisConcurrency: _a, importComplete: _i, ...summary } = b;
  return summary;
}

/** Checks options from an adapter; throws `invalid-parameter`. */
export function validateOptions(o: BatchOptions): void {
  const bad = (msg: string): never => {
    throw new AppError('invalid-parameter', msg);
  };
  if (typeof o.name !== 'string' || o.name.trim() === '') bad('A batch needs a name.');
  for (const [key, v] of [
    ['downloadConcurrency', o.downloadConcurrency],
    ['analysisConcurrency', o.analysisConcurrency],
  ] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v < 1 || v > 256)) bad(`${key} must be an integer from 1 to 256.`);
  }
  if (o.operation.kind === 'detect' && !(o.operation.minHeadScale >= 0.015 && o.operation.minHeadScale <= 0.5))
    bad('minHeadScale must be from 0.015 to 0.5.');
}
