import type { FastifyInstance } from 'fastify';
import type { ApiGateway } from '../../services/api';
import { wireMapping } from '../errors';
import { describedRoutes } from '../openapi';
import { operationHandler } from '../operation-handler';
import { analyzeRouteSchema } from '../openapi-schemas';
import { analyzeFailure, analyzeSuccess } from '../replies';

/** `GET|POST /ai/vision/analyze` (spec §4.1): the analyze envelope, errors inside it with Azure codes. */
export async function visionRoutes(app: FastifyInstance, opts: { gateway: ApiGateway }): Promise<void> {
  const handler = operationHandler({
    run: (call) => opts.gateway.analyze(call),
    status: (code) => wireMapping(code).status,
    failure: analyzeFailure,
    success: (reply, value, transaction, traceId) => reply.send(analyzeSuccess(value, transaction ?? { Id: '', Method: '' }, traceId)),
  });
  describedRoutes(app);
  app.get('/ai/vision/analyze', { schema: analyzeRouteSchema('GET') }, handler);
  app.post('/ai/vision/analyze', { schema: analyzeRouteSchema('POST') }, handler);
}
