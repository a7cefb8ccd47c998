import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { readUrlList, type ListFormat } from '../../../src-main/jobs';

const LINES = 1_000_000;

/** A list generated on the fly, 1 000 lines per chunk, so only the reader could hold it whole. */
function generatedList(header: string | null, line: (i: number) => string): Readable {
  return Readable.from(
    (function* () {
      if (header !== null) yield `${header}\n`;
      for (let i = 0; i < LINES; i += 1_000) {
        let chunk = '';
        for (let j = i; j < i + 1_000; j++) chunk += `${line(j)}\n`;
        yield chunk;
      }
    })(),
  );
}

// A forced collection before each sample measures live memory, not garbage awaiting collection.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const liveHeap = (): number => {
  gc();
  return process.memoryUsage().heapUsed;
};

/** Reads every entry, keeping only counts; returns them with the largest live-heap growth seen, in MB. */
async function drain(source: Readable, format: ListFormat): Promise<{ entries: number; invalid: number; heapGrowthMb: number }> {
  const before = liveHeap();
  let peak = before;
  let entries = 0;
  let invalid = 0;
  for await (const entry of readUrlList(source, format)) {
    entries++;
    if (entry.error) invalid++;
    if (entries % 100_000 === 0) peak = Math.max(peak, liveHeap());
  }
  return { entries, invalid, heapGrowthMb: (peak - before) / 2 ** 20 };
}

// The text of each list is about 35 MB (70 MB as JS strings), and its 1 000 000 entries held at
// once take about 150–180 MB of heap; streaming keeps a few chunks and one CSV parser buffer.
const MAX_HEAP_GROWTH_MB = 16;
const TIMEOUT_MS = 180_000; // about 15 s (text) and 35 s (CSV) on a busy 2-core machine

describe('streaming a 1 000 000-line list', () => {
  it(
    'reads a text list without holding it in memory',
    async () => {
      const result = await drain(
        generatedList(null, (i) => (i % 100_000 === 0 ? 'not a url' : `https://img.example/p/${i}.jpg`)),
        'auto',
      );
      expect(result).toMatchObject({ entries: LINES, invalid: LINES / 100_000 });
      expect(result.heapGrowthMb).toBeLessThan(MAX_HEAP_GROWTH_MB);
    },
    TIMEOUT_MS,
  );

  it(
    'reads a semicolon CSV without holding it in memory',
    async () => {
      const result = await drain(
        generatedList('id;url', (i) => `${i};https://img.example/p/${i}.jpg`),
        'auto',
      );
      expect(result).toMatchObject({ entries: LINES, invalid: 0 });
      expect(result.heapGrowthMb).toBeLessThan(MAX_HEAP_GROWTH_MB);
    },
    TIMEOUT_MS,
  );
});
