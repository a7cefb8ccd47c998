import type { Channel, PicscanApi, Req, Res } from '../../src-main/shared/ipc';
import type { ErrorCode } from '../../src-main/shared/errors';

/** An error returned by the main side, with its stable code. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

declare global {
  interface Window {
    api?: PicscanApi;
  }
}

/** Calls a channel over whichever transport is present and unwraps the Result envelope. */
export async function invoke<C extends Channel>(channel: C, req: Req<C>, transport: PicscanApi | undefined = window.api): Promise<Res<C>> {
  if (!transport) throw new ApiError('internal', 'No connection to picscan (neither the desktop bridge nor web mode is available).');
  const result = await transport.invoke(channel, req);
  if (!result.ok) throw new ApiError(result.error.code, result.error.message);
  return result.value;
}
