import { createImageLoader, type IntakeOptions } from '../intake';
import type { ImageFetcher } from './types';

/** The production fetcher: image intake with one pooled, policy-guarded agent for the whole batch. */
export function createIntakeFetcher(opts: IntakeOptions): ImageFetcher {
  const loader = createImageLoader(opts);
  return { fetch: (url, signal, beforeDecode) => loader.load(url, signal, { beforeDecode }), close: () => loader.close() };
}
