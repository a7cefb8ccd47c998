import type { Logger } from '../core';
import { createImageLoader, type IntakeOptions } from '../intake';
import { HostBreaker, type HostBreakerRule } from './host-breaker';
import type { FetchedImage, ImageFetcher } from './types';

/**
 * The production fetcher: image intake with one pooled, policy-guarded agent for the whole batch,
 * and a host breaker (jobs/host-breaker.ts): the URLs of an unavailable host wait for it, and fail
 * once it is taken for down.
 */
export function createIntakeFetcher(opts: IntakeOptions, breaker: { rule?: HostBreakerRule; logger?: Logger } = {}): ImageFetcher {
  const loader = createImageLoader(opts);
  const hosts = new HostBreaker(breaker.rule, undefined, breaker.logger);
  return {
    async fetch(url, signal, { beforeDecode, batchId, slot, onHostWait } = {}) {
      for (;;) {
        const { probe } = await hosts.admit(url, signal, batchId, onHostWait);
        try {
          // A host that became unavailable while this URL waited for a download slot is not
          // asked again (only the probe asks): the slot goes to another URL, this one waits.
          const download = async (): Promise<FetchedImage | undefined> =>
            probe || !hosts.unavailable(url) ? await loader.load(url, signal, { beforeDecode }) : undefined;
          const image = await (slot ? slot(download) : download());
          if (image === undefined) continue;
          hosts.record(url, probe);
          return image;
        } catch (err) {
          // A run that stops aborts its fetches: that says nothing about the host.
          if (signal.aborted) hosts.release(url, probe);
          else hosts.record(url, probe, err);
          throw err;
        }
      }
    },
    holdFor: (url, batchId) => hosts.holdFor(url, batchId),
    unavailableHosts: (batchId) => hosts.unavailableHosts(batchId),
    close: () => loader.close(),
  };
}
