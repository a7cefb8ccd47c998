/**
 * fifoStream on real named pipes (`mkfifo`) with real producer processes: every list is read to
 * its end, whenever the producer comes and goes, and destroying the stream stops a wait at once.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fifoStream } from '../../../src-main/cli/fifo-stream';

function namedPipe(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'picscan-fifo-')), 'list');
  execFileSync('mkfifo', [path]);
  return path;
}

/** A producer process: waits `afterMs`, then writes `text` to the pipe and exits. */
function producer(path: string, text: string, afterMs = 0): Promise<number | null> {
  const child = spawn('sh', ['-c', `sleep ${afterMs / 1000}; printf '%s' "$1" > "$2"`, 'producer', text, path]);
  return new Promise((resolve) => child.on('close', resolve));
}

/** Everything the stream gives until its end, or `timed out` after `limitMs`. */
function readAll(stream: Readable, limitMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => {
      stream.destroy();
      resolve(`timed out after reading ${JSON.stringify(text)}`);
    }, limitMs);
    stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
    stream.on('end', () => {
      clearTimeout(timer);
      resolve(text);
    });
    stream.on('error', reject);
  });
}

describe('fifoStream', () => {
  it('reads a producer that writes and exits at once to its end, every time (30 runs)', async () => {
    // The producer's write and exit race the reader's open: a reader that opened the pipe twice
    // (blocking, then non-blocking) missed the end in most of these runs and waited forever.
    const results: string[] = [];
    for (let run = 0; run < 30; run++) {
      const path = namedPipe();
      const wrote = producer(path, `photos/${run}.jpg\n`);
      results.push(await readAll(await fifoStream(path)));
      expect(await wrote).toBe(0);
    }
    expect(results).toEqual(Array.from({ length: 30 }, (_, run) => `photos/${run}.jpg\n`));
  }, 120_000);

  it('waits for a producer that comes later, instead of reading an empty list', async () => {
    const path = namedPipe();
    const stream = await Promise.race([fifoStream(path), producer(path, 'late.jpg\n', 400).then(() => 'producer first')]);
    expect(typeof stream).not.toBe('string');
    expect(await readAll(stream as Readable)).toBe('late.jpg\n');
  });

  it('ends at once with nothing for a producer that writes nothing', async () => {
    const path = namedPipe();
    const wrote = producer(path, '');
    expect(await readAll(await fifoStream(path))).toBe('');
    expect(await wrote).toBe(0);
  });

  it('stops waiting for a producer that never comes when destroyed', async () => {
    const path = namedPipe();
    const stream = await fifoStream(path);
    const closed = new Promise((resolve) => stream.on('close', resolve));
    const startedMs = Date.now();
    stream.destroy();
    await closed;
    expect(Date.now() - startedMs).toBeLessThan(1_000);
  });
});
