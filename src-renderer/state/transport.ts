import type { PicscanApi } from '../../src-main/shared';
import { defaultTransport } from '../api/client';

/** How a state class reaches the main side; tests pass an in-process transport. */
export type TransportSource = () => PicscanApi | undefined;

export const liveTransport: TransportSource = defaultTransport;

/** Plain words for anything thrown by the API. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
