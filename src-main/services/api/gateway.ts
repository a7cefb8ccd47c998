import { afterPendingIo, AppError, isCancellation, toWireError } from '../../core';
import type { WireError } from '../../shared/errors';
import type { AnalyzeData, DetectResponse } from '../../shared/spec';
import type { Credits, Hold } from './credits';
import type { ApiAccount, KeysService } from './keys.service';
import { PROCESSED_DETECT_CODES, type ImageOperations, type ThumbnailImage } from './operations';
import { parseAnalyzeParams, parseDetectParams, parseThumbnailParams, type RawParams } from './params';
import type { RateLimiter } from './rate-limit';
import { FREE_TIER_MESSAGE, TIERS } from './tiers';

/** The charged transaction of a call (spec §2.1 `transaction`). */
export interface ChargedTransaction {
  Id: string;
  /** Payment method: always the credit balance. */
  Method: 'credit';
  priceMicrocents: number;
}

/** Why a call was refused before any processing; never charged. */
export type Refusal =
  | { reason: 'unauthorized'; error: WireError }
  | { reason: 'tier-unavailable'; error: WireError }
  | { reason: 'insufficient-credit'; error: WireError }
  | { reason: 'rate-limited'; error: WireError; retryAfterSec: number }
  | { reason: 'invalid'; error: WireError };

/** What one call to an operation came to. */
export type CallOutcome<T> =
  | { ok: true; value: T; transaction: ChargedTransaction | null }
  | { ok: false; refusal: Refusal }
  /** The operation failed after admission (e.g. unreachable image); refunded. */
  | { ok: false; refusal?: undefined; error: WireError };

/** One incoming call, transport-neutral. */
export interface ApiCall {
  key: string | undefined;
  params: RawParams;
  traceId: string;
  signal?: AbortSignal;
}

const refuse = <T>(refusal: Refusal): CallOutcome<T> => ({ ok: false, refusal });

/**
 * The API's use case: authenticate → validate → hold credit → admit under the tier limits →
 * run → charge (image processed) or refund. Transports map the outcome to HTTP.
 */
export class ApiGateway {
  constructor(
    private readonly keys: KeysService,
    private readonly limiter: RateLimiter,
    private readonly credits: Credits,
    private readonly ops: ImageOperations,
  ) {}

  analyze(call: ApiCall): Promise<CallOutcome<AnalyzeData>> {
    return this.run(
      call,
      'analyze',
      parseAnalyzeParams,
      (req, signal) => this.ops.analyze(req, signal),
      () => true,
    );
  }

  detect(call: ApiCall): Promise<CallOutcome<DetectResponse>> {
    return this.run(
      call,
      'detect',
      parseDetectParams,
      (req, signal) => this.ops.detect(req, signal),
      (body) => ('Errors' in body ? body.Errors.some((e) => PROCESSED_DETECT_CODES.has(e.ErrCode)) : true),
    );
  }

  /**
   * A thumbnail call: the same key, parameter, credit and limit steps as analyze, one transaction
   * at the tier's price when the image was processed. The ledger records it under `analyze` (the
   * vision operations; the transactions table accepts `analyze` and `detect` only).
   */
  thumbnail(call: ApiCall): Promise<CallOutcome<ThumbnailImage>> {
    const make = this.ops.thumbnail?.bind(this.ops);
    if (!make) {
      return Promise.resolve({ ok: false, error: { code: 'not-found', message: 'This server offers no thumbnail operation.' } });
    }
    return this.run(call, 'analyze', parseThumbnailParams, make, () => true);
  }

  private async run<Req, T>(
    call: ApiCall,
    operation: 'analyze' | 'detect',
    parse: (raw: RawParams) => Req,
    exec: (req: Req, signal?: AbortSignal) => Promise<T>,
    processed: (value: T) => boolean,
  ): Promise<CallOutcome<T>> {
    const account = this.authenticate(call.key);
    if (!account.ok) return refuse(account.refusal);
    let req: Req;
    try {
      req = parse(call.params);
    } catch (err) {
      return refuse({ reason: 'invalid', error: toWireError(err) });
    }
    const hold = this.credits.hold(account.value.id, account.value.tier, operation, call.traceId);
    if (!hold) {
      return refuse({
        reason: 'insufficient-credit',
        error: { code: 'insufficient-credit', message: 'Insufficient credit: a call needs a balance of at least 0.09¢. Top the key up.' },
      });
    }
    const limit = this.limiter.admit(account.value.id, account.value.tier);
    if (!limit.ok) {
      this.credits.release(hold);
      const message = `Rate limit reached: at most ${limit.limit} calls per ${limit.period} for this tier. Retry after ${limit.retryAfterSec} s.`;
      return refuse({
        reason: 'rate-limited',
        retryAfterSec: limit.retryAfterSec,
        error: { code: 'rate-limited', message, details: { period: limit.period, limit: limit.limit } },
      });
    }
    return this.execute(hold, () => exec(req, call.signal), processed, call.signal);
  }

  /**
   * Runs an admitted call under its hold. A client that goes away (the signal aborts) gets its
   * hold released at once, while the work unwinds, and is never charged, even when the result
   * was ready before the cancellation was noticed: nobody received it.
   */
  private async execute<T>(
    hold: Hold,
    exec: () => Promise<T>,
    processed: (value: T) => boolean,
    signal: AbortSignal | undefined,
  ): Promise<CallOutcome<T>> {
    const releaseOnAbort = (): void => this.credits.release(hold);
    if (signal?.aborted) releaseOnAbort();
    signal?.addEventListener('abort', releaseOnAbort, { once: true });
    let value: T;
    try {
      value = await exec();
      // A disconnect during the last model runs may not have been read yet: let it arrive first.
      if (signal) await afterPendingIo();
    } catch (err) {
      this.credits.release(hold);
      if (!(err instanceof AppError) && !isCancellation(err)) throw err;
      return { ok: false, error: toWireError(err) };
    } finally {
      signal?.removeEventListener('abort', releaseOnAbort);
    }
    if (signal?.aborted) {
      this.credits.release(hold);
      return { ok: false, error: { code: 'cancelled', message: 'The operation was cancelled.' } };
    }
    if (!processed(value)) {
      this.credits.release(hold);
      return { ok: true, value, transaction: null };
    }
    this.credits.charge(hold);
    return { ok: true, value, transaction: { Id: hold.id, Method: 'credit', priceMicrocents: hold.priceMicrocents } };
  }

  private authenticate(key: string | undefined): { ok: true; value: ApiAccount } | { ok: false; refusal: Refusal } {
    if (key === undefined || key === '') {
      return {
        ok: false,
        refusal: {
          reason: 'unauthorized',
          error: {
            code: 'unauthorized',
            message: 'An API key is required: send it in header `key` (POST) or query parameter `key` (GET).',
          },
        },
      };
    }
    const account = this.keys.authenticate(key);
    if (!account)
      return {
        ok: false,
        refusal: { reason: 'unauthorized', error: { code: 'unauthorized', message: 'The API key is invalid or has been revoked.' } },
      };
    // Keys are never created on an unavailable tier; a row edited by hand is still refused clearly.
    if (!TIERS[account.tier].available) {
      return { ok: false, refusal: { reason: 'tier-unavailable', error: { code: 'tier-unavailable', message: FREE_TIER_MESSAGE } } };
    }
    return { ok: true, value: account };
  }
}
