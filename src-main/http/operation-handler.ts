import type { FastifyReply, FastifyRequest } from 'fastify';
import { toWireError } from '../core';
import type { ErrorCode, WireError } from '../shared/errors';
import type { ApiCall, CallOutcome, ChargedTransaction } from '../services/api';
import { callFromRequest, clientGone } from './request';

/** What differs between the operations' routes: the use case, and how its answers are written. */
export interface OperationRoute<T> {
  run(call: ApiCall): Promise<CallOutcome<T>>;
  /** The HTTP status of a refusal or failure with this code. */
  status(code: ErrorCode): number;
  /** The body of a refusal or failure, in the operation's own error shape. */
  failure(error: WireError, traceId: string): unknown;
  /** Sends the 200 reply of a processed image. */
  success(reply: FastifyReply, value: T, transaction: ChargedTransaction | null, traceId: string): FastifyReply;
}

/**
 * The request handler shared by every operation: request → transport-neutral call → gateway →
 * reply, with `X-Transaction-Id` on a charged call and `Retry-After` on a rate-limit refusal.
 * A request that cannot become a call (a body that is not an object) gets the operation's
 * error shape too.
 */
export function operationHandler<T>(route: OperationRoute<T>): (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  return async (request, reply) => {
    const traceId = String(request.id);
    let call: ApiCall;
    try {
      call = callFromRequest(request, clientGone(reply));
    } catch (err) {
      const wire = toWireError(err);
      return reply.code(route.status(wire.code)).send(route.failure(wire, traceId));
    }
    const outcome = await route.run(call);
    if (outcome.ok) {
      if (outcome.transaction) reply.header('x-transaction-id', outcome.transaction.Id);
      return route.success(reply.code(200), outcome.value, outcome.transaction, traceId);
    }
    const error = outcome.refusal ? outcome.refusal.error : outcome.error;
    if (outcome.refusal?.reason === 'rate-limited') reply.header('retry-after', String(outcome.refusal.retryAfterSec));
    return reply.code(route.status(error.code)).send(route.failure(error, traceId));
  };
}
