import { randomUUID } from 'node:crypto';
import { toWireError } from '../core';
import { wireMapping } from '../shared/api-errors';
import type { AnalyzeData, AnalyzeEnvelope } from '../shared/spec';

/** Who called: the API server passes its transaction and trace ids; the CLI uses local ones. */
export interface EnvelopeContext {
  transactionId: string;
  /** Payment method of the transaction (the API's credit balance; `local` for the CLI/app). */
  method: string;
  traceId: string;
  /** Classifier run id; a fresh UUID when omitted. */
  classifierId?: string;
}

/** A context for local (non-API) calls: fresh UUIDs and method `local`. */
export function localEnvelopeContext(): EnvelopeContext {
  return { transactionId: randomUUID(), method: 'local', traceId: randomUUID() };
}

/**
 * Wraps an analysis outcome in the spec §2.1 envelope. Success: `response: 'success'`,
 * `status: true`, `classifier: [{ Id, Response: 'success' }]`, `data`. Failure (any thrown
 * value): `status: false`, `response` = the message, `classifier: [{ Id, Response: 'failed' }]`,
 * no `data`, and `error: { code, message }` where `code` is the Azure code of the AppError code
 * from the one mapping table `shared/api-errors.ts` (e.g. unsupported-feature →
 * NotSupportedVisualFeature, invalid-image-format → InvalidImageFormat, anything unexpected →
 * InternalServerError).
 */
export function buildEnvelope(outcome: { data: AnalyzeData } | { error: unknown }, ctx: EnvelopeContext): AnalyzeEnvelope {
  // Keys in the order of spec §2.1.
  const transaction = { Id: ctx.transactionId, Method: ctx.method };
  const classifierId = ctx.classifierId ?? randomUUID();
  if ('data' in outcome) {
    return {
      query: 'analyze',
      response: 'success',
      status: true,
      classifier: [{ Id: classifierId, Response: 'success' }],
      data: outcome.data,
      transaction,
      trace_id: ctx.traceId,
    };
  }
  const wire = toWireError(outcome.error);
  return {
    query: 'analyze',
    response: wire.message,
    status: false,
    classifier: [{ Id: classifierId, Response: 'failed' }],
    transaction,
    trace_id: ctx.traceId,
    error: { code: wireMapping(wire.code).azure, message: wire.message },
  };
}
