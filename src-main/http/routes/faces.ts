import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toWireError } from '../../core';
import type { ApiGateway } from '../../services/api';
import { detectStatus } from '../errors';
import { describedRoutes } from '../openapi';
import { detectRouteSchema } from '../openapi-schemas';
import { detectBody, detectFailure } from '../replies';
import { callFromRequest, clientGone } from '../request';

/**
 * `GET|POST /ai/faces/detect` (spec §4.2): `{ images }` or a Kairos `{ Errors }` body. Parameter
 * and image problems come with HTTP 200 as in spec §7; key, credit, limit and body-size
 * refusals keep their HTTP status. `/ai/faces/train` (the spec's GET example) is an alias.
 */
export async function facesRoutes(app: FastifyInstance, opts: { gateway: ApiGateway }): Promise<void> {
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const traceId = String(request.id);
    let call;
    try {
      call = callFromRequest(request, clientGone(reply));
    } catch (err) {
      const wire = toWireError(err);
      return reply.code(detectStatus(wire.code)).send(detectFailure(wire, traceId));
    }
    const outcome = await opts.gateway.detect(call);
    if (outcome.ok) {
      if (outcome.transaction) reply.header('x-transaction-id', outcome.transaction.Id);
      return reply.code(200).send(detectBody(outcome.value, traceId));
    }
    const error = outcome.refusal ? outcome.refusal.error : outcome.error;
    if (outcome.refusal?.reason === 'rate-limited') reply.header('retry-after', String(outcome.refusal.retryAfterSec));
    return reply.code(detectStatus(error.code)).send(detectFailure(error, traceId));
  };
  describedRoutes(app);
  for (const path of ['/ai/faces/detect', '/ai/faces/train']) {
    const alias = path === '/ai/faces/train';
    app.get(path, { schema: detectRouteSchema('GET', alias) }, handler);
    app.post(path, { schema: detectRouteSchema('POST', alias) }, handler);
  }
}
