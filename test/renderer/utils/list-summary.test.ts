import { describe, expect, it } from 'vitest';
import { HEAD_LINE_CHARS, HEAD_LINES, formatMegabytes, summariseList } from '../../../src-renderer/utils/list-summary';

describe('summariseList', () => {
  it('counts lines (a last one without a newline too) and UTF-8 bytes', () => {
    expect(summariseList('')).toEqual({ lines: 0, bytes: 0, head: [] });
    expect(summariseList('a\nb\n')).toMatchObject({ lines: 2, bytes: 4 });
    expect(summariseList('a\r\nb')).toMatchObject({ lines: 2, bytes: 4, head: ['a', 'b'] });
    expect(summariseList('https://a.example/café.jpg\n')).toMatchObject({ lines: 1, bytes: 28 });
    expect(summariseList('\n\n# comment\n')).toMatchObject({ lines: 3 });
  });

  it('shows only the first lines, each cut to a bounded length', () => {
    const long = 'x'.repeat(HEAD_LINE_CHARS + 50);
    const text = [long, ...Array.from({ length: 20 }, (_, i) => `https://a.example/${i}.jpg`)].join('\n');
    const { head, lines } = summariseList(text);
    expect(lines).toBe(21);
    expect(head).toHaveLength(HEAD_LINES);
    expect(head[0]).toBe(`${'x'.repeat(HEAD_LINE_CHARS)}…`);
    expect(head[1]).toBe('https://a.example/0.jpg');
    expect(head[HEAD_LINES - 1]).toBe(`https://a.example/${HEAD_LINES - 2}.jpg`);
    expect(summariseList('x'.repeat(HEAD_LINE_CHARS)).head).toEqual(['x'.repeat(HEAD_LINE_CHARS)]);
  });

  it('writes sizes in decimal megabytes', () => {
    expect(formatMegabytes(6_123_456)).toBe('6.1 MB');
    expect(formatMegabytes(60_000_000)).toBe('60 MB');
  });
});
