import { AppError } from '../../core';
import type { ImageProcessor } from '../../jobs';
import type { Backend } from '../../shared/batch';
import { createRemoteClient, type RemoteClient, type RemoteClientOptions } from './remote-client';

/**
 * The batch `ImageProcessor` for `{ kind: 'remote' }` backends: sends the item's URL to the remote
 * service instead of running the local models. Local files cannot be sent (the service takes
 * URLs only, spec §1), so such items fail with `invalid-input`.
 */
export function createRemoteProcessor(client: RemoteClient): ImageProcessor {
  return {
    async process(image, operation, signal) {
      if (!/^https?:\/\//i.test(image.source)) {
        throw new AppError('invalid-input', `${image.source} is a local file; a remote backend accepts only http(s) image URLs.`);
      }
      if (operation.kind === 'analyze') {
        const data = await client.analyze(
          {
            image: image.source,
            features: operation.features.length > 0 ? operation.features : undefined,
            details: operation.details.length > 0 ? operation.details : undefined,
          },
          signal,
        );
        return { kind: 'analyze', data };
      }
      const response = await client.detect(
        { image: image.source, minHeadScale: operation.minHeadScale, selector: operation.selector },
        signal,
      );
      return { kind: 'detect', response };
    },
  };
}

/**
 * What `BatchesService` needs as `remoteProcessor`: a backend (base URL, method) → processor,
 * with the key (and optionally a trusted CA) from settings, the environment or the CLI.
 */
export function remoteProcessorFactory(
  opts: Omit<RemoteClientOptions, 'baseUrl' | 'method'>,
): (backend: Extract<Backend, { kind: 'remote' }>) => ImageProcessor {
  return (backend) => createRemoteProcessor(createRemoteClient({ ...opts, baseUrl: backend.baseUrl, method: backend.method }));
}
