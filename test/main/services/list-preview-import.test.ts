import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { previewUrlList } from '../../../src-main/shared/list-preview';
import type { ListFormat } from '../../../src-main/shared/list-layout';
import { createTestDb } from '../../helpers/db';
import { batchOptions, fakeProcessor, makeService } from '../jobs/support';

/** A list as the import reads it: UTF-8 bytes in small chunks, so lines and characters straddle them. */
function bytesOf(text: string, chunkBytes = text.length < 5_000 ? 7 : 4_099): Readable {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += chunkBytes) chunks.push(bytes.subarray(at, at + chunkBytes));
  return Readable.from(chunks);
}

const longUrl = (i: number, chars: number): string => `https://img.example/${String(i).padStart(4, '0')}/${'x'.repeat(chars)}.jpg`;
const lines = (...l: string[]): string => l.join('\n');

interface Case {
  name: string;
  text: string;
  format: ListFormat;
  /** read, valid, invalid, duplicates */
  counts: [number, number, number, number];
}

const CASES: Case[] = [
  {
    name: 'quoted CSV fields with commas, quotes and newlines',
    text: 'id,url,note\n1,"https://a.example/1,2.jpg","a, b"\n2,https://a.example/2.jpg,"multi\nline ""quoted"""\n3,"https://a.example/1,2.jpg",dup\n',
    format: 'csv',
    counts: [3, 2, 0, 1],
  },
  {
    name: '# rows in a text list (URL fragments kept)',
    text: lines(
      '# a comment',
      '  # indented comment',
      'https://a.example/1.jpg#frag',
      'https://a.example/1.jpg',
      '#https://a.example/3.jpg',
    ),
    format: 'txt',
    counts: [2, 2, 0, 0],
  },
  {
    name: '# rows in a CSV (before the header and between records), # inside a field',
    text: lines(
      '# exported list',
      'url,tag',
      'https://a.example/1.jpg#x,one',
      '# skipped',
      'https://a.example/2.jpg,#two',
      '#https://a.example/3.jpg,c',
    ),
    format: 'csv',
    counts: [2, 2, 0, 0],
  },
  {
    name: 'empty url cells: one invalid item each, never dropped or merged',
    text: lines('sku,url', 'A1,', 'A2,  ', 'A3,https://a.example/3.jpg', ',', 'A4,""'),
    format: 'csv',
    counts: [4, 1, 3, 0],
  },
  {
    name: 'BOM and CRLF in a text list',
    text: '\uFEFFhttps://a.example/1.jpg\r\n\r\nhttps://a.example/café.jpg\r\nnot a url\r\nhttps://a.example/1.jpg\r\nhttps://a.example/caf%C3%A9.jpg',
    format: 'txt',
    counts: [5, 2, 1, 2],
  },
  {
    name: 'BOM and CRLF in a CSV, sniffed',
    text: '\uFEFFURL,n\r\nhttps://a.example/1.jpg,1\r\nhttps://a.example/2.jpg,2\r\n',
    format: 'auto',
    counts: [2, 2, 0, 0],
  },
  {
    name: 'semicolon CSV (decimal commas in other columns)',
    text: lines('id;url;price', '1;https://a.example/1.jpg;3,50', '2;"https://a.example/2,b.jpg";4,00', '3;bad;0'),
    format: 'csv',
    counts: [3, 2, 1, 0],
  },
  {
    name: 'tab-separated CSV, sniffed',
    text: lines('id\turl', '1\thttps://a.example/1.jpg', '2\thttps://a.example/2.jpg', '3\tftp://a.example/3.jpg'),
    format: 'auto',
    counts: [3, 2, 1, 0],
  },
  {
    name: 'duplicates that differ only in normalisation',
    text: lines(
      'HTTP://A.Example/x y.jpg',
      'http://a.example/x%20y.jpg',
      'http://a.example:80/x%20y.jpg',
      'https://a.example/./p/../q.jpg',
      'https://a.example/q.jpg',
      'not a url',
      'not a url',
    ),
    format: 'txt',
    counts: [7, 2, 1, 4],
  },
  {
    name: '125 distinct 5 000-character URLs stay 125 items',
    text: lines(...Array.from({ length: 125 }, (_, i) => longUrl(i, 5_000))),
    format: 'txt',
    counts: [125, 125, 0, 0],
  },
  {
    name: 'lines over 64 KiB: distinct invalid items, an identical repeat is a duplicate',
    text: lines(longUrl(1, 70_000), longUrl(2, 70_000), longUrl(1, 70_000), longUrl(3, 60_000)),
    format: 'txt',
    counts: [4, 1, 2, 1],
  },
  {
    name: 'long URLs in a CSV',
    text: lines('url,n', ...Array.from({ length: 20 }, (_, i) => `${longUrl(i, 5_000)},${i}`), `${longUrl(99, 70_000)},big`),
    format: 'csv',
    counts: [21, 20, 1, 0],
  },
  {
    // The preview hands csv-parse UTF-8 bytes (list-preview.ts), as the import does.
    name: 'multibyte characters in CSV fields and URLs, quoted newlines among them',
    text: lines(
      'nom;url;note',
      'café;https://bücher.example/straße/ß.jpg;"ñ, ü"',
      '日本;https://xn--bcher-kva.example/stra%C3%9Fe/%C3%9F.jpg;"二\n行"',
      'emoji 🎉;"https://a.example/🎉.jpg";x',
      'é;é;invalid',
    ),
    format: 'auto',
    counts: [4, 2, 1, 1],
  },
  {
    name: 'a pasted CSV read as text is one URL per line',
    text: lines('url,note', 'https://a.example/1.jpg,x'),
    format: 'txt',
    counts: [2, 1, 1, 0],
  },
];

describe('the UI preview and the import read a list the same way', () => {
  it.each(CASES)('$name', async ({ text, format, counts }) => {
    const preview = previewUrlList({ text, format });
    const service = makeService(createTestDb(), fakeProcessor());
    const report = await service.create(bytesOf(text), batchOptions(), format);

    const [read, valid, invalid, duplicates] = counts;
    expect(preview).toMatchObject({ read, valid, invalid, duplicates, problem: null });
    expect({
      read: report.lines,
      valid: report.items - report.invalid,
      invalid: report.invalid,
      duplicates: report.duplicates,
    }).toEqual({ read: preview.read, valid: preview.valid, invalid: preview.invalid, duplicates: preview.duplicates });
    expect(report.batch.counts).toMatchObject({ total: report.items, queued: preview.valid, failed: preview.invalid });
  });

  it('stores a line over 64 KiB whole, failed with the reason, never cut to merge with another', async () => {
    const service = makeService(createTestDb(), fakeProcessor());
    const [a, b] = [longUrl(1, 70_000), longUrl(2, 70_000)];
    const report = await service.create(bytesOf(lines(a, b)), batchOptions(), 'txt');
    const items = service.resultsPage({ filter: { batchId: report.batch.id } }).items;
    expect(items.map((i) => [i.url.length, i.status])).toEqual([
      [a.length, 'failed'],
      [b.length, 'failed'],
    ]);
    expect(items[0]!.url).toBe(a);
    expect(items[0]!.error).toMatchObject({
      code: 'invalid-image-url',
      message: expect.stringMatching(/^Line 1: .*limited to 65536/) as unknown,
    });
  });

  it('keeps every row with an empty url cell, with its metadata and the reason', async () => {
    const service = makeService(createTestDb(), fakeProcessor());
    const report = await service.create(bytesOf(lines('sku,url', 'A1,', 'A2,')), batchOptions(), 'csv');
    const items = service.resultsPage({ filter: { batchId: report.batch.id } }).items;
    expect(items.map((i) => [i.status, i.metadata, i.error?.message])).toEqual([
      ['failed', { sku: 'A1' }, 'Line 2: the url cell is empty.'],
      ['failed', { sku: 'A2' }, 'Line 3: the url cell is empty.'],
    ]);
  });

  const REFUSED: Array<{ name: string; text: string; format: ListFormat; message: RegExp }> = [
    {
      name: 'a quote closed mid-field',
      text: lines('url,n', 'https://a.example/1.jpg,"ok"', 'https://a.example/2.jpg,"bad"x'),
      format: 'csv',
      message: /^Line 3: malformed CSV quote/,
    },
    {
      name: 'a quote never closed',
      text: lines('url,n', 'https://a.example/1.jpg,"open', 'https://a.example/2.jpg,x'),
      format: 'auto',
      message: /^Line 3: malformed CSV quote/,
    },
    {
      name: 'a quote inside an unquoted field',
      text: lines('url;n', 'https://a.example/1.jpg;a"b'),
      format: 'csv',
      message: /^Line 2: malformed CSV quote/,
    },
    {
      name: 'two url columns',
      text: lines('# list', 'url,name,URL', 'https://a.example/1.jpg,a,https://a.example/2.jpg'),
      format: 'csv',
      message: /^Line 2: the CSV list has 2 "url" columns \(columns 1 and 3\)/,
    },
    { name: 'no url column', text: lines('a,b', '1,2'), format: 'csv', message: /^Line 1: the CSV list has no "url" column/ },
    {
      // 600 000 characters but 1.2 MB of UTF-8: the limit counts bytes in both.
      name: 'a record over 1 MiB of UTF-8 bytes',
      text: lines('url,note', `https://a.example/1.jpg,${'é'.repeat(600_000)}`),
      format: 'csv',
      message: /^Line 2: a record longer than 1048576 bytes/,
    },
  ];

  it.each(REFUSED)('refuses the whole list, naming the line, in both: $name', async ({ text, format, message }) => {
    const preview = previewUrlList({ text, format });
    expect(preview).toMatchObject({ read: 0, valid: 0, problem: expect.stringMatching(message) as unknown });
    const service = makeService(createTestDb(), fakeProcessor());
    await expect(service.create(bytesOf(text), batchOptions(), format)).rejects.toMatchObject({
      code: 'invalid-list',
      message: preview.problem,
    });
    expect(service.list()).toEqual([]);
  });
});
