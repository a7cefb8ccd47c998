// A Redis failure is written once per window, not once per client and reconnection attempt.
import { describe, expect, it } from 'vitest';
import { REPEATED_WARNINGS, repeatedWarnings } from '../../../../src-main/services/distributed/repeated-warnings';

describe('repeatedWarnings', () => {
  const setup = () => {
    let t = 1_000_000;
    const lines: string[] = [];
    const w = repeatedWarnings(
      (m) => lines.push(m),
      () => t,
    );
    return { w, lines, advance: (ms: number) => (t += ms) };
  };

  it('writes a failure once per window, then with the count of what it left out', () => {
    const { w, lines, advance } = setup();
    for (let i = 0; i < 5; i++) {
      w.warn('ENOTFOUND', 'redis connection: ENOTFOUND');
      w.warn('ENOTFOUND', 'redis worker: ENOTFOUND');
      advance(1_000);
    }
    expect(lines).toEqual(['redis connection: ENOTFOUND']);
    advance(REPEATED_WARNINGS.windowMs);
    w.warn('ENOTFOUND', 'redis worker: ENOTFOUND');
    expect(lines[1]).toBe('redis worker: ENOTFOUND (repeated 9 times in the last 65 s)');
    advance(REPEATED_WARNINGS.windowMs);
    w.warn('ENOTFOUND', 'redis worker: ENOTFOUND');
    expect(lines[2]).toBe('redis worker: ENOTFOUND');
  });

  it('writes another failure at once, and the same one again once the connection was back', () => {
    const { w, lines } = setup();
    w.warn('ECONNREFUSED', 'redis connection: ECONNREFUSED');
    w.warn('NOAUTH', 'redis connection: NOAUTH');
    w.warn('ECONNREFUSED', 'redis connection: ECONNREFUSED');
    expect(lines).toEqual(['redis connection: ECONNREFUSED', 'redis connection: NOAUTH']);
    w.reset();
    w.warn('ECONNREFUSED', 'redis connection: ECONNREFUSED');
    expect(lines).toHaveLength(3);
  });

  it(`keeps at most ${REPEATED_WARNINGS.maxKept} failures in mind`, () => {
    const { w, lines } = setup();
    for (let i = 0; i <= REPEATED_WARNINGS.maxKept; i++) w.warn(`failure ${i}`, `failure ${i}`);
    w.warn('failure 0', 'failure 0');
    w.warn(`failure ${REPEATED_WARNINGS.maxKept}`, 'again');
    expect(lines).toHaveLength(REPEATED_WARNINGS.maxKept + 2);
    expect(lines.at(-1)).toBe('failure 0');
  });
});
