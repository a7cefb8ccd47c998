import type { FastifyInstance } from 'fastify';
import type { ApiGateway } from '../../services/api';
import { detectStatus } from '../errors';
import { describedRoutes } from '../openapi';
import { operationHandler } from '../operation-handler';
import { detectRouteSchema } from '../openapi-schemas';
import { detectBody, detectFailure } from '../replies';

/**
 * `GET|POST /ai/faces/detect` (spec §4.2): `{ images }` or a Kairos `{ Errors }` body. Parameter
 * and image problems come with HTTP 200 as in spec §7; key, credit, limit and body-size
 * refusals keep their HTTP status. `/ai/faces/train` (the spec's GET example) is an alias.
 */
export async function facesRoutes(app: FastifyInstance, opts: { gateway: ApiGateway }): Promise<void> {
  const handler = operationHandler({
    run: (call) => opts.gateway.detect(call),
    status: detectStatus,
    failure: detectFailure,
    success: (reply, body, _transaction, traceId) => reply.send(detectBody(body, traceId)),
  });
  describedRoutes(app);
  for (const path of ['/ai/faces/detect', '/ai/faces/train']) {
    const alias = path === '/ai/faces/train';
    app.get(path, { schema: detectRouteSchema('GET', alias) }, handler);
    app.post(path, { schema: detectRouteSchema('POST', alias) }, handler);
  }
}
