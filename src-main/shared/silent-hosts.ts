import type { SilentHost } from './batch';

/** Seconds as "45 s" or "3 min". */
const duration = (s: number): string => (s < 120 ? `${s} s` : `${Math.floor(s / 60)} min`);

/**
 * What a running batch waits for, in one line for the CLI's progress and the batch list: "No
 * answer from img.example.com for 45 s; 4 images wait for it".
 */
export function silentHostsText(hosts: readonly SilentHost[]): string {
  return hosts
    .map(
      (h) =>
        `No answer from ${h.host} for ${duration(h.silentSeconds)}; ${h.waiting} image${h.waiting === 1 ? '' : 's'} wait${h.waiting === 1 ? 's' : ''} for it`,
    )
    .join('; ');
}
