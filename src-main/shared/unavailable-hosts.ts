import type { UnavailableHost } from './batch';

/** Seconds as "45 s" or "3 min". */
const duration = (s: number): string => (s < 120 ? `${s} s` : `${Math.floor(s / 60)} min`);

/**
 * What a running batch waits for, in one line for the CLI's progress and the batch list:
 * "img.example.com unavailable for 45 s (no answer in time); 16 images wait for it".
 */
export function unavailableHostsText(hosts: readonly UnavailableHost[]): string {
  return hosts
    .map((h) => {
      const images = h.waiting === 1 ? '1 image waits' : `${h.waiting} images wait`;
      return `${h.host} unavailable for ${duration(h.unavailableSeconds)} (${h.reason}); ${images} for it`;
    })
    .join('; ');
}
