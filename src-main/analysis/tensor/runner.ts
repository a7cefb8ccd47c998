import type { Tensor } from './resize';

/**
 * Runs one model by manifest id: named float feeds in, named outputs out. The analysis layer
 * depends on this function type only; the service adapts the inference engine to it, and tests
 * can pass a fake to exercise failure paths.
 */
export type ModelRunner = (modelId: string, feeds: Record<string, Tensor>, signal?: AbortSignal) => Promise<Record<string, Tensor>>;
