import { describe, expect, it } from 'vitest';
import { migrate, RedisLeftoversRepo } from '../../../src-main/store';
import { createTestDb } from '../../helpers/db';

describe('migration 11: Redis leftovers of ended distributed batches', () => {
  it('notes queue keys per Redis, oldest first, once each, until cleared', async () => {
    const db = createTestDb(10);
    expect(migrate(db, 11)).toBe(11);
    const notes = new RedisLeftoversRepo(db);
    expect(notes.on('redis://a:6379/0')).toEqual([]);
    notes.note({ queueKey: 'k1', redisUrl: 'redis://a:6379/0' });
    await new Promise((r) => setTimeout(r, 5)); // distinct note times
    notes.note({ queueKey: 'k2', redisUrl: 'redis://b:6379/0' });
    notes.note({ queueKey: 'k3', redisUrl: 'redis://a:6379/0' });
    notes.note({ queueKey: 'k1', redisUrl: 'redis://a:6379/0' }); // noted again: still one row
    expect(notes.on('redis://a:6379/0').map((n) => n.queueKey)).toEqual(['k3', 'k1']);
    expect(notes.on('redis://b:6379/0')).toEqual([{ queueKey: 'k2', redisUrl: 'redis://b:6379/0' }]);
    notes.clear('k3');
    expect(notes.on('redis://a:6379/0').map((n) => n.queueKey)).toEqual(['k1']);
  });
});
