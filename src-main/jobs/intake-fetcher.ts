import { createImageLoader, type IntakeOptions } from '../intake';
import { HostBreaker, type HostBreakerRule } from './host-breaker';
import type { ImageFetcher } from './types';

/**
 * The production fetcher: image intake with one pooled, policy-guarded agent for the whole batch,
 * and a host breaker (jobs/host-breaker.ts): a host whose requests keep timing out is not asked
 * again for a while.
 */
export function createIntakeFetcher(opts: IntakeOptions, breakerRule?: HostBreakerRule): ImageFetcher {
  const loader = createImageLoader(opts);
  const breaker = new HostBreaker(breakerRule);
  return {
    async fetch(url, signal, beforeDecode) {
      breaker.check(url);
      try {
        const image = await loader.load(url, signal, { beforeDecode });
        breaker.record(url);
        return image;
      } catch (err) {
        // A run that stops aborts its fetches: that says nothing about the host.
        if (!signal.aborted) breaker.record(url, err);
        throw err;
      }
    },
    close: () => loader.close(),
  };
}
