import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toWireError } from '../../core';
import type { ApiGateway } from '../../services/api';
import { wireMapping } from '../errors';
import { describedRoutes } from '../openapi';
import { analyzeRouteSchema } from '../openapi-schemas';
import { analyzeFailure, analyzeSuccess } from '../replies';
import { callFromRequest, clientGone } from '../request';

/** `GET|POST /ai/vision/analyze` (spec §4.1): the analyze envelope, errors inside it with Azure codes. */
export async function visionRoutes(app: FastifyInstance, opts: { gateway: ApiGateway }): Promise<void> {
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const traceId = String(request.id);
    let call;
    try {
      call = callFromRequest(request, clientGone(reply));
    } catch (err) {
      const wire = toWireError(err);
      return reply.code(wireMapping(wire.code).status).send(analyzeFailure(wire, traceId));
    }
    const outcome = await opts.gateway.analyze(call);
    if (outcome.ok) {
      const tx = outcome.transaction ?? { Id: '', Method: '' };
      if (outcome.transaction) reply.header('x-transaction-id', outcome.transaction.Id);
      return reply.code(200).send(analyzeSuccess(outcome.value, tx, traceId));
    }
    const error = outcome.refusal ? outcome.refusal.error : outcome.error;
    if (outcome.refusal?.reason === 'rate-limited') reply.header('retry-after', String(outcome.refusal.retryAfterSec));
    return reply.code(wireMapping(error.code).status).send(analyzeFailure(error, traceId));
  };
  describedRoutes(app);
  app.get('/ai/vision/analyze', { schema: analyzeRouteSchema('GET') }, handler);
  app.post('/ai/vision/analyze', { schema: analyzeRouteSchema('POST') }, handler);
}
