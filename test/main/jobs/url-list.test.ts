import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readUrlList, type ListEntry, type ListFormat } from '../../../src-main/jobs';
import { checkListUrl, withoutUserinfo } from '../../../src-main/shared/list-url';
import { fixture } from '../../helpers/paths';

async function read(text: string | string[], format: ListFormat = 'auto'): Promise<ListEntry[]> {
  const out: ListEntry[] = [];
  for await (const e of readUrlList(Readable.from(Array.isArray(text) ? text : [text]), format)) out.push(e);
  return out;
}

async function readBytes(bytes: Buffer): Promise<ListEntry[]> {
  const out: ListEntry[] = [];
  for await (const e of readUrlList(Readable.from([bytes]))) out.push(e);
  return out;
}

describe('reading URL lists', () => {
  it('reads text lists: blank lines and # comments skipped, URLs normalised, bad lines kept with a reason', async () => {
    const entries = await read('\uFEFF# header\r\nhttp://Example.com/a b.jpg\r\n\r\n  https://x.org/1.png  \nnope\njavascript:alert(1)\n');
    expect(entries).toEqual([
      { line: 2, url: 'http://example.com/a%20b.jpg', metadata: null, error: null },
      { line: 4, url: 'https://x.org/1.png', metadata: null, error: null },
      {
        line: 5,
        url: 'nope',
        metadata: null,
        error: { code: 'invalid-image-url', message: 'Line 5: "nope" is not a valid URL (http://…, https://… or file:///…).' },
      },
      { line: 6, url: 'javascript:alert(1)', metadata: null, error: expect.objectContaining({ code: 'unsupported-scheme' }) as unknown },
    ]);
  });

  it('reads absolute local paths as file URLs (POSIX, Windows, UNC), escaping what a URL would read otherwise', async () => {
    const entries = await read(
      '/home/ana/a b#1?.jpg\n/x/100%.jpg\nC:\\Photos\\a.jpg\nd:/Fotos/ä.jpg\n\\\\nas\\share\\c.png\nphotos/a.jpg\n',
    );
    expect(entries.map((e) => e.url)).toEqual([
      // The same as node:url's pathToFileURL on POSIX.
      pathToFileURL('/home/ana/a b#1?.jpg').href,
      pathToFileURL('/x/100%.jpg').href,
      'file:///C:/Photos/a.jpg',
      'file:///d:/Fotos/%C3%A4.jpg',
      'file://nas/share/c.png',
      'photos/a.jpg',
    ]);
    expect(entries.slice(0, 5).every((e) => e.error === null)).toBe(true);
    // A drive letter is no URL scheme ("uses the c: scheme" before).
    expect(entries[5]!.error).toEqual({
      code: 'invalid-image-url',
      message: 'Line 6: "photos/a.jpg" is not a valid URL (http://…, https://… or file:///…) or an absolute path to a local file.',
    });
  });

  it('reads lines split across chunks', async () => {
    expect((await read(['http://a.org/1.j', 'pg\nhttp://a.org/2.jpg'])).map((e) => e.url)).toEqual([
      'http://a.org/1.jpg',
      'http://a.org/2.jpg',
    ]);
  });

  it('reads CSV (sniffed from the header): the url column, other columns as metadata, quoted fields', async () => {
    const csv = 'id,URL,note\n1,http://a.org/1.jpg,"hello, world"\n2,bad url,x\n\n3,http://a.org/3.jpg,"multi\nline"\n';
    const entries = await read(csv);
    expect(entries.map(({ line, url, metadata, error }) => ({ line, url, metadata, code: error?.code }))).toEqual([
      { line: 2, url: 'http://a.org/1.jpg', metadata: { id: '1', note: 'hello, world' }, code: undefined },
      { line: 3, url: 'bad url', metadata: { id: '2', note: 'x' }, code: 'invalid-image-url' },
      { line: 6, url: 'http://a.org/3.jpg', metadata: { id: '3', note: 'multi\nline' }, code: undefined },
    ]);
  });

  it('refuses a CSV without a url column as an invalid list', async () => {
    await expect(read('a,b\n1,2\n', 'csv')).rejects.toMatchObject({ code: 'invalid-list', message: /Line 1: .*no "url" column/ });
  });

  it('refuses a UTF-16 list (either BOM, or none) up front as an invalid list, without quoting its bytes', async () => {
    const text = 'url,name\nhttp://a.org/1.jpg,one\n';
    const le = Buffer.from(text, 'utf16le');
    const be = Buffer.from(le).swap16();
    for (const bytes of [Buffer.concat([Buffer.from([0xff, 0xfe]), le]), Buffer.concat([Buffer.from([0xfe, 0xff]), be]), le]) {
      const err = await readBytes(bytes).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'invalid-list', message: /UTF-16 .*UTF-8/ });
      expect((err as Error).message).not.toMatch(/[\0\uFFFD]/);
    }
    // UTF-8 with its BOM is read as before.
    const utf8 = await readBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]));
    expect(utf8.map((e) => [e.url, e.metadata])).toEqual([['http://a.org/1.jpg', { name: 'one' }]]);
  });

  it('refuses an image, an archive, a workbook or binary data given as the list, naming what it is', async () => {
    const cases: Array<[string, Buffer, RegExp]> = [
      ['a JPEG', readFileSync(fixture('cat_chelsea.jpg')), /is a JPEG image, not a text or CSV file .*single image, use analyze/],
      ['a PNG', readFileSync(fixture('text_bw.png')), /is a PNG image/],
      ['gzip', gzipSync('http://a.org/1.jpg\n'), /is gzip-compressed data/],
      [
        'a workbook',
        Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(200, 7)]),
        /ZIP archive .*CSV UTF-8 with a "url" column/,
      ],
      ['zero bytes', Buffer.alloc(3000), /is binary data/],
      [
        'an executable',
        Buffer.concat([Buffer.from('\x7fELF\x02\x01\x01', 'latin1'), Buffer.alloc(64, 1), Buffer.from('http://a.org/1.jpg')]),
        /is binary data/,
      ],
    ];
    for (const [what, bytes, message] of cases) {
      const err = await readBytes(bytes).catch((e: unknown) => e);
      expect(err, what).toMatchObject({ code: 'invalid-list', message });
    }
    // Text with tabs and CRLF line ends, and UTF-16 (half its bytes NUL), keep their own handling.
    expect(await readBytes(Buffer.from('url\tname\r\nhttp://a.org/1.jpg\tone\r\n'))).toHaveLength(1);
    await expect(readBytes(Buffer.from('http://a.org/1.jpg\n', 'utf16le'))).rejects.toMatchObject({ message: /UTF-16/ });
  });

  it('treats a list whose first line is a URL as text', async () => {
    expect(await read('http://a.org/x,y.jpg\n')).toHaveLength(1);
  });

  // A hang guard, not a benchmark: the first version's pattern backtracked, 20 s on one such line.
  it('masks userinfo in one pass over the longest lines a list may hold', { timeout: 10_000 }, () => {
    const run = 'a'.repeat(64 * 1024 - 16);
    const digits = '1'.repeat(32_000);
    const cases: Array<[string, string]> = [
      [run, run],
      [`http://${run}`, `http://${run}`],
      [`${run}@host`, '***@host'],
      [`http://${run}:pw@host`, 'http://***@host'],
      [`x${digits}:/${run.slice(32_000)}@host`, `x${digits}:/***@host`],
    ];
    for (const [line, shown] of cases) expect(withoutUserinfo(line), line.slice(0, 20)).toBe(shown);
    // `1…1:` is no scheme (a scheme starts with a letter), so nothing after it is userinfo.
    const noScheme = `${digits}:/${run.slice(32_000)}@h`;
    expect(withoutUserinfo(noScheme)).toBe(noScheme);
  });

  it("never quotes a line's user name or password in its message, parseable URL or not; the line stays the identity", async () => {
    const pw = 'S3cretPass';
    const lines = [
      `http://alice:${pw}@127.0.0.1:18080/x.jpg`, // valid URL with credentials
      `http://alice@h.example.org/x.jpg`, // user name only
      `http://alice@corp:${pw}@h.example.org/x.jpg`, // an @ inside the userinfo
      `http://alice:${pw} two@h.example.org/x.jpg`, // a space in the password (still a valid URL)
      `http:alice:${pw}@h.example.org/x.jpg`, // no slashes: WHATWG still reads userinfo
      `http:\\\\alice:${pw}@h.example.org\\x.jpg`, // backslashes
      `ftp://alice:${pw}@h.example.org/x.jpg`, // refused for its scheme
      `alice:${pw}@h.example.org/x.jpg`, // no scheme: read as the scheme "alice:"
      `"http://alice:${pw}@h.example.org/x.jpg"`, // not a URL
      `//alice:${pw}@h.example.org/x.jpg`, // not a URL
      `http://alice:${'p'.repeat(300)}@h.example.org/x.jpg`, // quoted cut at 200 characters
      `http://alice:${pw}@h.example.org/${'a'.repeat(70_000)}.jpg`, // over the length limit
    ];
    for (const line of lines) {
      const { url, error } = checkListUrl(line, 7);
      expect(url, line).toBe(line.trim());
      expect(error?.message, line).toMatch(/^Line 7: "/);
      expect(error!.message, line).toMatch(/127\.0\.0\.1|h\.example\.org/);
      expect(error!.message, line).toContain('***@');
      for (const secret of ['alice', pw, 'pppp']) expect(error!.message, line).not.toContain(secret);
    }
    const [entry] = await read(`${lines[0]}\n`);
    expect(entry!.error!.message).toBe('Line 1: "http://***@127.0.0.1:18080/x.jpg" contains a user name or password.');
  });

  it('leaves an @ outside the userinfo as written', () => {
    for (const text of ['http://h.example.org/a@b.jpg', 'file:///home/a@b.jpg', 'http://h.example.org/x.jpg?u=a:b@c', 'nope'])
      expect(withoutUserinfo(text)).toBe(text);
  });
});
