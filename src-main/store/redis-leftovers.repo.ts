import type { Db } from './db';

/** An ended distributed batch whose state in Redis may remain (migration 11). */
export interface RedisLeftover {
  queueKey: string;
  /** Stored form of the batch's Redis URL (no password). */
  redisUrl: string;
}

/** Queue keys of ended distributed batches whose Redis state is still to be removed. */
export class RedisLeftoversRepo {
  private readonly noteStmt;
  private readonly onStmt;
  private readonly clearStmt;

  constructor(db: Db) {
    this.noteStmt = db.prepare<[string, string, string]>(
      'INSERT OR REPLACE INTO redis_leftovers (queue_key, redis_url, noted_at) VALUES (?, ?, ?)',
    );
    this.onStmt = db.prepare<[string], { queue_key: string; redis_url: string }>(
      'SELECT queue_key, redis_url FROM redis_leftovers WHERE redis_url = ? ORDER BY noted_at, rowid',
    );
    this.clearStmt = db.prepare<[string]>('DELETE FROM redis_leftovers WHERE queue_key = ?');
  }

  note(leftover: RedisLeftover): void {
    this.noteStmt.run(leftover.queueKey, leftover.redisUrl, new Date().toISOString());
  }

  /** The leftovers on one Redis (by stored URL), oldest first. */
  on(redisUrl: string): RedisLeftover[] {
    return this.onStmt.all(redisUrl).map((r) => ({ queueKey: r.queue_key, redisUrl: r.redis_url }));
  }

  clear(queueKey: string): void {
    this.clearStmt.run(queueKey);
  }
}
