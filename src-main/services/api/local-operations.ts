import type { AppConfig } from '../../config';
import { AppError } from '../../core';
import type { ImageOperations } from './operations';

/** How the server's own image operations fetch images. */
export interface LocalOperationsOptions {
  config: AppConfig;
  /** Refuse image URLs on loopback/private/link-local/metadata addresses (the API default). */
  blockPrivateNetworks: boolean;
}

/** The local models behind the API, with intake in `api` mode (no local files, SSRF guard). */
export function createLocalOperations(_opts: LocalOperationsOptions): ImageOperations & { close(): Promise<void> } {
  const missing = (): never => {
    throw new AppError('model-missing', 'The analyze and detect services are not available in this build.');
  };
  return { analyze: async () => missing(), detect: async () => missing(), close: async () => {} };
}
