import { describe, expect, it } from 'vitest';
import { Credits, KeysService, RateLimiter, formatDollars, hashKey, parseDollars, windowsAt } from '../../../src-main/services/api';
import { MAX_BALANCE_MICROCENTS } from '../../../src-main/shared/api';
import { createTestDb } from '../../helpers/db';

describe('money', () => {
  it('parses dollars into integer micro-cents without float drift', () => {
    expect(parseDollars('15')).toBe(1_500_000_000);
    expect(parseDollars('$50.00')).toBe(5_000_000_000);
    expect(parseDollars('0.0012')).toBe(120_000);
    expect(parseDollars('0.00000001')).toBe(1);
    expect(formatDollars(120_000)).toBe('0.0012');
    expect(formatDollars(1_500_000_000)).toBe('15.00');
    for (const bad of ['', '-1', '1e3', '0.000000001', 'abc']) expect(() => parseDollars(bad)).toThrow(/not a dollar amount/);
  });

  it('caps amounts at $10,000,000 (10^15 µ¢, exact below 2^53) and says so', () => {
    expect(parseDollars('10000000')).toBe(MAX_BALANCE_MICROCENTS);
    expect(Number.isSafeInteger(MAX_BALANCE_MICROCENTS)).toBe(true);
    for (const over of ['10000000.00000001', '99999999', '999999999', '123456789012345678901234567890']) {
      expect(() => parseDollars(over), over).toThrow(/over the limit: a key's balance may hold at most \$10,000,000/);
    }
  });
});

describe('keys', () => {
  it('stores only the SHA-256 of the key and authenticates it; revoked keys stop working', () => {
    const db = createTestDb();
    const keys = new KeysService(db);
    const created = keys.create({ name: 'ci', tier: 'basic' });
    expect(created.key).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
    expect(created.balanceMicrocents).toBe(1_500_000_000); // basic minimum, $15
    const row = db.prepare('SELECT * FROM api_keys').get() as Record<string, unknown>;
    expect(JSON.stringify(row)).not.toContain(created.key);
    expect(row.key_hash).toBe(hashKey(created.key));
    expect(keys.authenticate(created.key)).toEqual({ id: created.id, name: 'ci', tier: 'basic' });
    expect(keys.authenticate(created.key + 'x')).toBeUndefined();
    keys.revoke(created.id);
    expect(keys.authenticate(created.key)).toBeUndefined();
    expect(() => keys.revoke(created.id)).toThrow(/already revoked/);
  });

  it('refuses the free tier clearly and tops up exactly', () => {
    const keys = new KeysService(createTestDb());
    expect(() => keys.create({ name: 'x', tier: 'free' })).toThrow(/free tier exists but is not available/);
    const k = keys.create({ name: 'p', tier: 'pro', creditMicrocents: 1 });
    expect(keys.topUp(k.id, parseDollars('0.1')).balanceMicrocents).toBe(10_000_001);
    expect(() => keys.topUp(999, 5)).toThrow(/No API key with id 999/);
  });

  it('refuses opening credits and top-ups that would take a balance over the limit, leaving it unchanged', () => {
    const keys = new KeysService(createTestDb());
    expect(() => keys.create({ name: 'x', tier: 'pro', creditMicrocents: MAX_BALANCE_MICROCENTS + 1 })).toThrow(/at most \$10,000,000/);
    expect(() => keys.create({ name: 'x', tier: 'pro', creditMicrocents: 2 ** 53 })).toThrow(/at most \$10,000,000/);
    expect(() => keys.create({ name: 'x', tier: 'pro', creditMicrocents: 0.5 })).toThrow(/whole number of micro-cents/);
    const k = keys.create({ name: 'rich', tier: 'pro', creditMicrocents: MAX_BALANCE_MICROCENTS - 100 });
    expect(() => keys.topUp(k.id, 101)).toThrow(/would take it over the limit of \$10,000,000 per key/);
    expect(() => keys.topUp(k.id, 2 ** 53)).toThrow(/at most \$10,000,000/);
    expect(() => keys.topUp(k.id, 0)).toThrow(/top-up must be more than \$0/);
    expect(() => keys.topUp(k.id, MAX_BALANCE_MICROCENTS + 1)).toThrow(/at most \$10,000,000/);
    expect(keys.get(k.id).balanceMicrocents).toBe(MAX_BALANCE_MICROCENTS - 100);
    expect(keys.topUp(k.id, 100).balanceMicrocents).toBe(MAX_BALANCE_MICROCENTS);
  });
});

describe('credits', () => {
  it('holds the tier price only while the balance is at least 0.09¢, and refunds on release', () => {
    const db = createTestDb();
    const keys = new KeysService(db);
    const k = keys.create({ name: 'c', tier: 'basic', creditMicrocents: 96_000 });
    const credits = new Credits(db);
    const a = credits.hold(k.id, 'basic', 'analyze', 't1');
    const b = credits.hold(k.id, 'basic', 'analyze', 't2');
    expect(a && b).toBeTruthy();
    expect(keys.get(k.id).balanceMicrocents).toBe(90_000);
    const c = credits.hold(k.id, 'basic', 'detect', 't3');
    expect(c).toBeTruthy();
    expect(credits.hold(k.id, 'basic', 'detect', 't4')).toBeUndefined(); // 87 000 < 90 000
    credits.charge(a!);
    credits.release(b!);
    credits.charge(c!);
    expect(keys.get(k.id).balanceMicrocents).toBe(90_000);
    expect(credits.chargedCount(k.id)).toBe(2);
  });

  it('refunds holds left by a crash when a new process starts', () => {
    const db = createTestDb();
    const keys = new KeysService(db);
    const k = keys.create({ name: 'c', tier: 'pro', creditMicrocents: 100_000 });
    let now = 1_000_000;
    const credits = new Credits(db, () => now);
    credits.hold(k.id, 'pro', 'analyze', 't');
    expect(keys.get(k.id).balanceMicrocents).toBe(98_000);
    now += 11 * 60_000;
    expect(credits.releaseStale()).toBe(1);
    expect(keys.get(k.id).balanceMicrocents).toBe(100_000);
  });
});

describe('rate limits', () => {
  it('uses fixed UTC windows', () => {
    const w = windowsAt(Date.UTC(2026, 1, 28, 23, 59, 30));
    expect(w.minute.endMs - Date.UTC(2026, 1, 28, 23, 59, 30)).toBe(30_000);
    expect(new Date(w.day.startMs).toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(new Date(w.month.endMs).toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });

  it('admits 100 calls per minute on basic, then refuses with the seconds to the next minute', () => {
    const db = createTestDb();
    const k = new KeysService(db).create({ name: 'r', tier: 'basic' });
    let now = Date.UTC(2026, 0, 5, 10, 0, 17, 250);
    const limiter = new RateLimiter(db, () => now);
    for (let i = 0; i < 100; i++) expect(limiter.admit(k.id, 'basic').ok).toBe(true);
    expect(limiter.admit(k.id, 'basic')).toEqual({ ok: false, period: 'minute', limit: 100, retryAfterSec: 43 });
    now += 43_000; // next minute
    expect(limiter.admit(k.id, 'basic').ok).toBe(true);
  });

  it('enforces the daily volume across minutes (basic 5 000/day)', () => {
    const db = createTestDb();
    const k = new KeysService(db).create({ name: 'd', tier: 'basic' });
    db.prepare("INSERT INTO api_usage VALUES (?, 'day', ?, 5000)").run(k.id, Date.UTC(2026, 0, 5));
    const now = Date.UTC(2026, 0, 5, 22, 0, 0);
    const r = new RateLimiter(db, () => now).admit(k.id, 'basic');
    expect(r).toEqual({ ok: false, period: 'day', limit: 5000, retryAfterSec: 7200 });
  });
});
