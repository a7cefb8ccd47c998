import type { Backend, BatchOperation } from '../shared/batch';

/**
 * A canonical string for "what was computed": operation, its options (order-insensitive) and the
 * backend kind. Only results with equal keys are reused for identical bytes.
 */
export function operationKey(op: BatchOperation, backend: Backend): string {
  const sorted = (xs: readonly string[]): string => [...new Set(xs.map((x) => x.toLowerCase()))].sort().join(',');
  // Distributed workers run the same models as this machine (jobs carry the model-set hash and
  // workers refuse others), so their results are interchangeable with local ones.
  const where = backend.kind === 'remote' ? `remote:${backend.baseUrl}` : 'local';
  if (op.kind === 'analyze') return `analyze|${sorted(op.features)}|${sorted(op.details)}|${where}`;
  return `detect|${op.minHeadScale}|${sorted(op.selector)}|${where}`;
}
