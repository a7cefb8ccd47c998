import { AppError } from '../core';
import { buildEnvelope } from '../services/analyze-envelope';
import type { WireError } from '../shared/errors';
import type { AnalyzeData, AnalyzeEnvelope, DetectResponse } from '../shared/spec';
import { kairosError, wireMapping } from './errors';

/** The analyze envelope of a successful call (spec §2.1), built by the analyze service's envelope builder. */
export function analyzeSuccess(data: AnalyzeData, transaction: { Id: string; Method: string }, traceId: string): AnalyzeEnvelope {
  return buildEnvelope({ data }, { transactionId: transaction.Id, method: transaction.Method, traceId, classifierId: data.requestId });
}

/** The analyze envelope of a failed call: `status: false`, an Azure-style `error`, nothing charged (empty transaction). */
export function analyzeFailure(err: WireError, traceId: string): AnalyzeEnvelope {
  return buildEnvelope({ error: new AppError(err.code, err.message) }, { transactionId: '', method: '', traceId });
}

/** The failure body of a thumbnail call: analyze's envelope and Azure codes, `query: 'thumbnail'`. */
export type ThumbnailFailure = Omit<AnalyzeEnvelope, 'query'> & { query: 'thumbnail' };

/** The thumbnail failure envelope (nothing charged: empty transaction). */
export function thumbnailFailure(err: WireError, traceId: string): ThumbnailFailure {
  return { ...analyzeFailure(err, traceId), query: 'thumbnail' };
}

/** A detect body (success or Kairos errors) with the call's trace id added. */
export function detectBody(body: DetectResponse, traceId: string): DetectResponse & { trace_id: string } {
  return { ...body, trace_id: traceId };
}

/** A Kairos `{ Errors }` body for a refusal or failure. */
export function detectFailure(err: WireError, traceId: string): { Errors: Array<{ Message: string; ErrCode: number }>; trace_id: string } {
  return { Errors: [kairosError(err)], trace_id: traceId };
}

/** Error body of routes that are neither operation (404, unknown paths). */
export function genericFailure(err: WireError, traceId: string): { error: { code: string; message: string }; trace_id: string } {
  return { error: { code: wireMapping(err.code).azure, message: err.message }, trace_id: traceId };
}
