import { AppError } from '../../../core';
import type { Channel, Req } from '../../../shared';
import { checkRequest } from '../../../shared/contract';

// Renderer input is untrusted: every request is checked against the contract's channel schemas
// (shared/contract/channels.ts) before a use case sees it.

export { filterSchema } from '../../../shared/contract';

/** Parses a channel's raw request, or throws `invalid-input` naming the bad fields. */
export function parseRequest<C extends Channel>(channel: C, raw: unknown): Req<C> {
  const checked = checkRequest(channel, raw);
  if (!checked.ok) throw new AppError(checked.error.code, checked.error.message);
  return checked.value;
}
