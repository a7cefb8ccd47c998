import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../core';
import { MAX_BALANCE_MICROCENTS, type ApiKeySummary, type ApiTier, type CreatedApiKey } from '../../shared/api';
import { KeysRepo, type ApiKeyRecord, type Db } from '../../store';
import { formatDollars, MAX_BALANCE_TEXT, overLimit, toDollars } from './money';
import { FREE_TIER_MESSAGE, TIERS } from './tiers';

/** Keys look like `psk_` + 43 base64url characters (256 random bits). */
const KEY_PREFIX = 'psk_';

/** SHA-256 of the key, hex. The key has 256 bits of entropy, so a plain hash is enough. */
export const hashKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

const summary = (r: ApiKeyRecord): ApiKeySummary => ({
  id: r.id,
  name: r.name,
  tier: r.tier,
  keyPrefix: r.keyPrefix,
  balanceMicrocents: r.balanceMicrocents,
  balance: toDollars(r.balanceMicrocents),
  createdAt: r.createdAt,
  revokedAt: r.revokedAt,
  transactions: r.transactions,
});

/** An authenticated caller. */
export interface ApiAccount {
  id: number;
  name: string;
  tier: ApiTier;
}

/**
 * API keys: creation (the key is returned once and stored only as its hash), listing, revocation,
 * top-ups and authentication with a constant-time hash comparison.
 */
export class KeysService {
  private readonly repo: KeysRepo;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.repo = new KeysRepo(db);
  }

  /** Creates a key; `creditMicrocents` defaults to the tier's minimum. The free tier is refused. */
  create(opts: { name: string; tier: ApiTier; creditMicrocents?: number }): CreatedApiKey {
    const policy = TIERS[opts.tier];
    if (!policy.available) throw new AppError('tier-unavailable', FREE_TIER_MESSAGE);
    const name = opts.name.trim();
    if (name === '') throw new AppError('invalid-parameter', 'A key needs a non-empty --name.');
    const balance = opts.creditMicrocents ?? policy.minimumMicrocents;
    if (balance > MAX_BALANCE_MICROCENTS) throw overLimit(`$${formatDollars(balance)}`);
    if (!Number.isSafeInteger(balance) || balance < 0)
      throw new AppError('invalid-parameter', 'The opening credit must be a whole number of micro-cents, 0 or more.');
    const key = KEY_PREFIX + randomBytes(32).toString('base64url');
    const id = this.repo.insert({
      name,
      tier: opts.tier,
      keyHash: hashKey(key),
      keyPrefix: key.slice(0, KEY_PREFIX.length + 6),
      balanceMicrocents: balance,
      createdAt: this.now().toISOString(),
    });
    return { id, key, tier: opts.tier, balance: toDollars(balance), balanceMicrocents: balance };
  }

  list(): ApiKeySummary[] {
    return this.repo.list().map(summary);
  }

  get(id: number): ApiKeySummary {
    const r = this.repo.get(id);
    if (!r) throw new AppError('not-found', `No API key with id ${id}.`);
    return summary(r);
  }

  /** Revokes a key; revoking twice is refused so scripts notice a wrong id. */
  revoke(id: number): ApiKeySummary {
    const existing = this.get(id);
    if (existing.revokedAt) throw new AppError('invalid-input', `API key ${id} was already revoked at ${existing.revokedAt}.`);
    this.repo.revoke(id, this.now().toISOString());
    return this.get(id);
  }

  /**
   * Adds credit (positive micro-cents) to a key. Refused, leaving the balance as it was, when the
   * balance would go over the limit (`MAX_BALANCE_DOLLARS`); the check and the update are one
   * SQLite transaction, so concurrent top-ups cannot pass it together.
   */
  topUp(id: number, microcents: number): ApiKeySummary {
    if (microcents > MAX_BALANCE_MICROCENTS) throw overLimit(`$${formatDollars(microcents)}`);
    if (!Number.isSafeInteger(microcents) || microcents <= 0) throw new AppError('invalid-parameter', 'A top-up must be more than $0.');
    this.db
      .transaction(() => {
        const { balanceMicrocents } = this.get(id);
        if (balanceMicrocents + microcents > MAX_BALANCE_MICROCENTS) {
          throw new AppError(
            'invalid-parameter',
            `Top-up refused: key ${id} holds $${formatDollars(balanceMicrocents)}, and adding $${formatDollars(microcents)} would take it over the limit of ${MAX_BALANCE_TEXT} per key.`,
            { details: { balanceMicrocents, maxBalanceMicrocents: MAX_BALANCE_MICROCENTS } },
          );
        }
        this.repo.credit(id, microcents);
      })
      .immediate();
    return this.get(id);
  }

  /** The active account of a key, or undefined for an unknown or revoked key. */
  authenticate(key: string): ApiAccount | undefined {
    const hash = hashKey(key);
    const r = this.repo.findByHash(hash);
    // The lookup is by an index on the hash; compare the full digests in constant time anyway.
    if (!r || !timingSafeEqual(Buffer.from(r.keyHash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
    if (r.revokedAt !== null) return undefined;
    return { id: r.id, name: r.name, tier: r.tier };
  }
}
