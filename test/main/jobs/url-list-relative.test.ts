/** Relative paths in a list: read against the list's folder when `picscan batch` gives one, refused as before otherwise. */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readUrlList, type ListEntry, type ListFormat } from '../../../src-main/jobs';
import { checkListUrl } from '../../../src-main/shared/list-url';
import { listEntries } from '../../../src-main/shared/list-preview';

async function read(text: string, baseDir?: string, format: ListFormat = 'auto'): Promise<ListEntry[]> {
  const out: ListEntry[] = [];
  for await (const e of readUrlList(Readable.from([text]), format, baseDir)) out.push(e);
  return out;
}

const base = '/home/ana/Photos';
const urlOf = (line: string, dir = base) => {
  const { url, error } = checkListUrl(line, 1, dir);
  expect(error, line).toBeNull();
  return url;
};

describe('relative paths in a list with a folder', () => {
  it('reads a relative path against the folder as its absolute file URL, . and .. applied', () => {
    expect(urlOf('a.jpg')).toBe('file:///home/ana/Photos/a.jpg');
    expect(urlOf('2024/a.jpg')).toBe('file:///home/ana/Photos/2024/a.jpg');
    expect(urlOf('./a.jpg')).toBe('file:///home/ana/Photos/a.jpg');
    expect(urlOf('./2024/./b/../a.jpg')).toBe('file:///home/ana/Photos/2024/a.jpg');
    expect(urlOf('../shared/a.jpg')).toBe('file:///home/ana/shared/a.jpg');
    expect(urlOf('../../../../../a.jpg')).toBe('file:///a.jpg'); // no higher than the root
    expect(urlOf('icon@2x.png')).toBe('file:///home/ana/Photos/icon@2x.png');
    expect(urlOf('~draft.jpg')).toBe('file:///home/ana/Photos/~draft.jpg'); // a name, not the home folder
    // A trailing separator, and the root itself, as the folder.
    expect(urlOf('a.jpg', '/home/ana/Photos/')).toBe('file:///home/ana/Photos/a.jpg');
    expect(urlOf('a.jpg', '/')).toBe('file:///a.jpg');
  });

  it('escapes what a URL would read otherwise, in the path and in the folder, as for an absolute line', () => {
    // The same URL as the absolute line, which reads like node:url's pathToFileURL.
    const absolute = checkListUrl('/home/ana/my photos #1/a b#1?100%.jpg', 1).url;
    expect(absolute).toBe('file:///home/ana/my%20photos%20%231/a%20b%231%3F100%25.jpg');
    expect(urlOf('a b#1?100%.jpg', '/home/ana/my photos #1')).toBe(absolute);
    expect(urlOf('ä/é.jpg')).toBe('file:///home/ana/Photos/%C3%A4/%C3%A9.jpg');
    // `%2e%2e` is a name here, not `..`: its `%` is escaped before the URL parser sees it.
    expect(urlOf('%2e%2e/a.jpg')).toBe('file:///home/ana/Photos/%252e%252e/a.jpg');
  });

  it('separates on \\ against a Windows folder (drive or UNC), keeps \\ in the name against a POSIX one', () => {
    expect(urlOf('photos\\a.jpg', 'C:\\Users\\ana\\Pictures')).toBe('file:///C:/Users/ana/Pictures/photos/a.jpg');
    expect(urlOf('..\\shared\\a.jpg', 'C:\\Users\\ana\\Pictures\\')).toBe('file:///C:/Users/ana/shared/a.jpg');
    expect(urlOf('.\\a b.jpg', 'C:/Users/ana/Pictures')).toBe('file:///C:/Users/ana/Pictures/a%20b.jpg');
    expect(urlOf('photos/a.jpg', 'd:\\')).toBe('file:///d:/photos/a.jpg');
    expect(urlOf('2024\\a.jpg', '\\\\nas\\share\\pics')).toBe('file://nas/share/pics/2024/a.jpg');
    // On POSIX a backslash is a character of a file name, as in an absolute POSIX line.
    expect(urlOf('photos\\a.jpg')).toBe('file:///home/ana/Photos/photos%5Ca.jpg');
    expect(urlOf('photos\\a.jpg')).toBe(checkListUrl('/home/ana/Photos/photos\\a.jpg', 1).url);
  });

  it('reads a host-like line without a scheme as a path too (a list is no address bar; wget -r mirrors into such folders)', () => {
    expect(urlOf('example.com/a.jpg')).toBe('file:///home/ana/Photos/example.com/a.jpg');
    expect(urlOf('www.example.com/a.jpg')).toBe('file:///home/ana/Photos/www.example.com/a.jpg');
    expect(urlOf('localhost/a.jpg')).toBe('file:///home/ana/Photos/localhost/a.jpg');
  });

  it('leaves URLs, absolute paths and other lines as they were', () => {
    const same = (line: string) => expect(checkListUrl(line, 3, base), line).toEqual(checkListUrl(line, 3));
    for (const line of [
      'http://Example.com/a b.jpg',
      'https://example.com/x.png',
      'file:///srv/a.jpg',
      '/srv/photos/a.jpg',
      'C:\\Photos\\a.jpg',
      'C:/Photos/a.jpg',
      '\\\\nas\\share\\a.jpg',
      'javascript:alert(1)', // unsupported-scheme
      'example.com:8080/a.jpg', // reads as the scheme example.com:
      'c:a.jpg', // a drive-relative Windows path reads as the scheme c:
      '//host/a.jpg', // neither a URL nor a folder-relative path
      '\\a.jpg',
      'http://alice:pw@example.com/a.jpg',
    ]) {
      same(line);
    }
    expect(checkListUrl('javascript:alert(1)', 3, base).error?.code).toBe('unsupported-scheme');
    expect(checkListUrl('//host/a.jpg', 3, base).error?.code).toBe('invalid-image-url');
  });

  it('refuses ~ and ~/…, which only a shell reads as the home folder', () => {
    for (const line of ['~/Pictures/a.jpg', '~\\Pictures\\a.jpg', '~']) {
      expect(checkListUrl(line, 4, base)).toEqual({
        url: line,
        error: {
          code: 'invalid-image-url',
          message: `Line 4: "${line}" starts with ~, which only a shell reads as the home folder; write the full path.`,
        },
      });
    }
  });

  it('keeps refusing a relative path without a folder (the UI, a pasted list), with the same message', () => {
    for (const line of ['photos/a.jpg', './a.jpg', '../a.jpg', 'example.com/a.jpg', '~/a.jpg']) {
      expect(checkListUrl(line, 6), line).toEqual({
        url: line,
        error: {
          code: 'invalid-image-url',
          message: `Line 6: "${line}" is not a valid URL (http://…, https://… or file:///…) or an absolute path to a local file.`,
        },
      });
    }
    // The preview (renderer) has no folder either.
    expect(listEntries('a.jpg\nphotos/a.jpg\n', 'txt').entries.map((e) => e.error?.code)).toEqual([
      'invalid-image-url',
      'invalid-image-url',
    ]);
  });

  it('reads relative lines of text and CSV lists against the folder; the identity equals the absolute line', async () => {
    const text = await read('# photos\n./a.jpg\n2024/b.jpg\n/home/ana/Photos/a.jpg\nhttps://example.com/c.jpg\n', base);
    expect(text.map((e) => [e.line, e.url, e.error])).toEqual([
      [2, 'file:///home/ana/Photos/a.jpg', null],
      [3, 'file:///home/ana/Photos/2024/b.jpg', null],
      [4, 'file:///home/ana/Photos/a.jpg', null], // the same item as line 2: the import collapses them
      [5, 'https://example.com/c.jpg', null],
    ]);
    const csv = await read('name;url\none;a.jpg\ntwo;../x/b.jpg\nthree;\n', base);
    expect(csv.map((e) => [e.url, e.metadata, e.error?.code])).toEqual([
      ['file:///home/ana/Photos/a.jpg', { name: 'one' }, undefined],
      ['file:///home/ana/x/b.jpg', { name: 'two' }, undefined],
      ['(empty url cell, line 4)', { name: 'three' }, 'invalid-image-url'],
    ]);
    // Without a folder both stay invalid, as before.
    expect((await read('a.jpg\n')).map((e) => e.error?.code)).toEqual(['invalid-image-url']);
    expect((await read('url\na.jpg\n')).map((e) => e.error?.code)).toEqual(['invalid-image-url']);
  });
});
