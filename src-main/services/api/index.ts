/**
 * The local API's use cases: keys and accounts, credits, tier limits, the call gateway that the
 * HTTP routes adapt, TLS material for the server, and the remote-backend client.
 */
import type { ApiTier } from '../../shared/api';
import type { Db, UsagePeriod } from '../../store';
import { Credits } from './credits';
import { ApiGateway } from './gateway';
import { KeysService } from './keys.service';
import type { ImageOperations } from './operations';
import { RateLimiter } from './rate-limit';

export { KeysService, hashKey, type ApiAccount } from './keys.service';
export { Credits, type Hold } from './credits';
export { RateLimiter, windowsAt, type LimitDecision } from './rate-limit';
export { ApiGateway, type ApiCall, type CallOutcome, type ChargedTransaction, type Refusal } from './gateway';
export { type ImageOperations, type ThumbnailImage, PROCESSED_DETECT_CODES } from './operations';
export {
  parseOrThrow,
  parseAnalyzeParams,
  parseAnalyzeOptions,
  parseDetectParams,
  parseThumbnailParams,
  parseThumbnailOptions,
  type AnalyzeOptions,
  type AnalyzeRequest,
  type DetectRequest,
  type ThumbnailRequest,
  type RawParams,
} from './params';
export { TIERS, MIN_BALANCE_MICROCENTS, FREE_TIER_MESSAGE, type TierPolicy } from './tiers';
export { parseDollars, formatDollars, toDollars, MAX_BALANCE_TEXT } from './money';
export { loadOrCreateTls, type TlsMaterial } from './tls';

/** Everything the API server needs, built over one database. */
export interface ApiServices {
  keys: KeysService;
  credits: Credits;
  gateway: ApiGateway;
}

/**
 * Builds the API services. `nowMs` is injectable so tests can pin the rate-limit windows.
 * Refunds holds left by a crashed earlier process.
 */
export function createApiServices(opts: {
  db: Db;
  operations: ImageOperations;
  nowMs?: () => number;
  /** Replaces the spec's per-tier bounds (load benchmarks only). */
  limits?: (tier: ApiTier) => Record<UsagePeriod, number>;
}): ApiServices {
  const nowMs = opts.nowMs ?? Date.now;
  const keys = new KeysService(opts.db, () => new Date(nowMs()));
  const credits = new Credits(opts.db, nowMs);
  credits.releaseStale();
  const gateway = new ApiGateway(keys, new RateLimiter(opts.db, nowMs, opts.limits), credits, opts.operations);
  return { keys, credits, gateway };
}
export { apiCallSlots, queuedOperations, type ApiCallSlots, type QueuedOperationsDeps } from './queued-operations';
export { createRemoteClient, type RemoteClient, type RemoteClientOptions } from './remote-client';
export { createRemoteProcessor, remoteProcessorFactory } from './remote-processor';
