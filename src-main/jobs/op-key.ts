import type { Backend, BatchOperation } from '../shared/batch';

/**
 * A canonical string for "what was computed": operation, its options (order-insensitive) and the
 * backend kind. Only results with equal keys are reused for identical bytes.
 */
export function operationKey(op: BatchOperation, backend: Backend): string {
  const sorted = (xs: readonly string[]): string => [...new Set(xs.map((x) => x.toLowerCase()))].sort().join(',');
  const where = backend.kind === 'local' ? 'local' : `remote:${backend.baseUrl}`;
  if (op.kind === 'analyze') return `analyze|${sorted(op.features)}|${sorted(op.details)}|${where}`;
  return `detect|${op.minHeadScale}|${sorted(op.selector)}|${where}`;
}
