import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toWireError } from '../../core';
import type { ApiGateway } from '../../services/api';
import { wireMapping } from '../errors';
import { describedRoutes } from '../openapi';
import { thumbnailRouteSchema } from '../openapi-schemas';
import { thumbnailFailure } from '../replies';
import { callFromRequest, clientGone } from '../request';

/** Path of the thumbnail operation. */
export const THUMBNAIL_PATH = '/ai/vision/thumbnail';

/**
 * `GET|POST /ai/vision/thumbnail`: the image bytes of exactly `width × height` (JPEG for JPEG
 * input, PNG for PNG input) with `X-Transaction-Id`; refusals and failures in analyze's envelope
 * with its HTTP statuses and Azure codes.
 */
export async function thumbnailRoutes(app: FastifyInstance, opts: { gateway: ApiGateway }): Promise<void> {
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const traceId = String(request.id);
    let call;
    try {
      call = callFromRequest(request, clientGone(reply));
    } catch (err) {
      const wire = toWireError(err);
      return reply.code(wireMapping(wire.code).status).send(thumbnailFailure(wire, traceId));
    }
    const outcome = await opts.gateway.thumbnail(call);
    if (outcome.ok) {
      if (outcome.transaction) reply.header('x-transaction-id', outcome.transaction.Id);
      return reply.code(200).type(outcome.value.mimeType).send(Buffer.from(outcome.value.data));
    }
    const error = outcome.refusal ? outcome.refusal.error : outcome.error;
    if (outcome.refusal?.reason === 'rate-limited') reply.header('retry-after', String(outcome.refusal.retryAfterSec));
    return reply.code(wireMapping(error.code).status).send(thumbnailFailure(error, traceId));
  };
  describedRoutes(app);
  app.get(THUMBNAIL_PATH, { schema: thumbnailRouteSchema('GET') }, handler);
  app.post(THUMBNAIL_PATH, { schema: thumbnailRouteSchema('POST') }, handler);
}
