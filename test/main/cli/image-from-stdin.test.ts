// `picscan analyze -` / `picscan detect -` read the image piped in (`curl … | picscan analyze -`),
// and a named pipe (`picscan analyze <(curl …)`) is read like a file: both up to the size limit,
// so an endless pipe is refused instead of filling the memory.
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPicscan, startPicscan } from '../../helpers/cli';
import { fixture } from '../../helpers/paths';

const dir = mkdtempSync(join(tmpdir(), 'picscan-stdin-'));
const env = { PICSCAN_DATA_DIR: dir };

describe('an image piped into picscan', () => {
  it('analyze - reads standard input', async () => {
    const r = await runPicscan(['analyze', '-', '--features', 'Description,Color'], {
      env,
      input: readFileSync(fixture('cat_chelsea.jpg')),
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const envelope = JSON.parse(r.stdout) as {
      status: boolean;
      data: { metadata: { width: number }; description: { captions: Array<{ text: string }> } };
    };
    expect(envelope.status).toBe(true);
    expect(envelope.data.metadata.width).toBe(451);
    expect(envelope.data.description.captions[0]!.text).toMatch(/\bcat\b/);
  });

  it('detect - reads standard input', async () => {
    const r = await runPicscan(['detect', '-'], { env, input: readFileSync(fixture('obama_portrait.jpg')) });
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as { images: Array<{ file: string; faces: unknown[] }> };
    expect(body.images[0]!.faces).toHaveLength(1);
    expect(body.images[0]!.file).toBe('stdin');
  });

  it('reads standard input named by path (/dev/fd/0, /proc/self/fd/0) when it is a socket, as a parent process may give it', async () => {
    // Node's spawn gives the child a socket: opening it by path fails (ENXIO).
    for (const path of ['/dev/fd/0', '/proc/self/fd/0']) {
      const r = await runPicscan(['analyze', path, '--features', 'Color'], { env, input: readFileSync(fixture('cat_chelsea.jpg')) });
      expect(r.stderr, path).toBe('');
      expect((JSON.parse(r.stdout) as { data: { metadata: { width: number } } }).data.metadata.width).toBe(451);
    }
  });

  it('reads a named pipe as the image file', async () => {
    const fifo = join(dir, 'photo.pipe');
    execFileSync('mkfifo', [fifo]);
    const run = startPicscan(['analyze', fifo, '--features', 'Color'], { env });
    createWriteStream(fifo).end(readFileSync(fixture('cat_chelsea.jpg')));
    const r = await run.done;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: true, data: { metadata: { width: 451, height: 300, format: 'Jpeg' } } });
  });

  it('refuses a pipe longer than the size limit as too large, without reading on', async () => {
    const r = await runPicscan(['analyze', '-', '--features', 'Color'], { env, input: Buffer.alloc(21 * 1024 * 1024, 0xff) });
    expect(r.stderr).toBe('picscan: The image at /dev/stdin is too large: more than 20 MB.\n');
    expect(r.code).toBe(1);
  });
});
