import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src-main/core';

/** A logger writing to a stream, and the JSON lines it wrote. */
function captured(level?: 'debug' | 'info'): {
  log: ReturnType<typeof createLogger>;
  lines(): Array<Record<string, unknown>>;
  raw(): string;
} {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const log = createLogger({ destination: out, level });
  return {
    log,
    raw: () => text,
    lines: () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('createLogger (pino)', () => {
  it('writes one JSON line per call with the level, the message and the fields', () => {
    const c = captured();
    c.log.info('batch 3 done', { items: 12 });
    c.log.warn('slow');
    c.log.debug('not at info');
    const [a, b, ...rest] = c.lines();
    expect(a).toMatchObject({ level: 'info', msg: 'batch 3 done', items: 12 });
    expect(typeof a!.time).toBe('number');
    expect(b).toMatchObject({ level: 'warn', msg: 'slow' });
    expect(rest).toEqual([]);
  });

  it('redacts API keys, tokens, Redis passwords and query strings, in fields and in the message', () => {
    const c = captured('debug');
    c.log.error('GET /ai/vision/analyze?key=sk_live_abc123&features=Tags failed', {
      key: 'sk_live_abc123',
      headers: { Authorization: 'Bearer tok_999', 'x-api-key': 'sk_live_abc123' },
      remoteKey: 'rk_555',
      token: 'sess-777',
      redis: 'redis://:s3cretPW@10.0.0.5:6379/2',
      redisUser: 'rediss://worker:hunter2@cache.example:6380',
      url: 'https://example.com/img.jpg?sig=abc&exp=1',
      nested: [{ password: 'pw-1' }, 'see http://h/x?token=t0k'],
      error: new Error('connect to redis://:s3cretPW@10.0.0.5 failed'),
    });
    const raw = c.raw();
    for (const secret of ['sk_live_abc123', 'tok_999', 'rk_555', 'sess-777', 's3cretPW', 'hunter2', 'sig=abc', 'pw-1', 't0k'])
      expect(raw, secret).not.toContain(secret);
    const [line] = c.lines();
    expect(line).toMatchObject({
      msg: 'GET /ai/vision/analyze?[redacted] failed',
      key: '[redacted]',
      headers: { Authorization: '[redacted]', 'x-api-key': '[redacted]' },
      redis: 'redis://:[redacted]@10.0.0.5:6379/2',
      redisUser: 'rediss://worker:[redacted]@cache.example:6380',
      url: 'https://example.com/img.jpg?[redacted]',
      nested: [{ password: '[redacted]' }, 'see http://h/x?[redacted]'],
      error: { name: 'Error', message: 'connect to redis://:[redacted]@10.0.0.5 failed' },
    });
  });

  it('leaves addresses without secrets as they are', () => {
    const c = captured();
    c.log.info('connected to Redis redis://10.0.0.5:6379/2', { url: 'https://example.com/a.jpg' });
    expect(c.lines()[0]).toMatchObject({ msg: 'connected to Redis redis://10.0.0.5:6379/2', url: 'https://example.com/a.jpg' });
  });
});
