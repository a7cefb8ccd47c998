import type { FastifyInstance } from 'fastify';
import type { ApiGateway } from '../../services/api';
import { wireMapping } from '../errors';
import { describedRoutes } from '../openapi';
import { operationHandler } from '../operation-handler';
import { thumbnailRouteSchema } from '../openapi-schemas';
import { thumbnailFailure } from '../replies';

/** Path of the thumbnail operation. */
export const THUMBNAIL_PATH = '/ai/vision/thumbnail';

/**
 * `GET|POST /ai/vision/thumbnail`: the image bytes of exactly `width × height` (JPEG for JPEG
 * input, PNG for PNG input) with `X-Transaction-Id`; refusals and failures in analyze's envelope
 * with its HTTP statuses and Azure codes.
 */
export async function thumbnailRoutes(app: FastifyInstance, opts: { gateway: ApiGateway }): Promise<void> {
  const handler = operationHandler({
    run: (call) => opts.gateway.thumbnail(call),
    status: (code) => wireMapping(code).status,
    failure: thumbnailFailure,
    success: (reply, image) => reply.type(image.mimeType).send(Buffer.from(image.data)),
  });
  describedRoutes(app);
  app.get(THUMBNAIL_PATH, { schema: thumbnailRouteSchema('GET') }, handler);
  app.post(THUMBNAIL_PATH, { schema: thumbnailRouteSchema('POST') }, handler);
}
