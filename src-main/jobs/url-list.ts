import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';
import { AppError } from '../core';
import type { ErrorCode } from '../shared/errors';

/** How an input list is laid out: one URL per line, a CSV with a `url` column, or sniffed. */
export type ListFormat = 'txt' | 'csv' | 'auto';

/** One entry of a list: a normalised URL, or the raw text with the reason it was refused. */
export interface ListEntry {
  /** 1-based physical line (text) or record number (CSV). */
  line: number;
  url: string;
  metadata: Record<string, string> | null;
  error: { code: ErrorCode; message: string } | null;
}

const MAX_URL_CHARS = 4096;
const SHOWN_CHARS = 200;

/** Checks and normalises one URL: http(s) or file:, no credentials, at most 4096 characters. */
export function checkListUrl(raw: string, line: number): Pick<ListEntry, 'url' | 'error'> {
  const text = raw.trim();
  const shown = text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text;
  const refuse = (code: ErrorCode, why: string): Pick<ListEntry, 'url' | 'error'> => ({
    url: text.slice(0, MAX_URL_CHARS),
    error: { code, message: `Line ${line}: "${shown}" ${why}` },
  });
  if (text.length > MAX_URL_CHARS) return refuse('invalid-image-url', `is longer than ${MAX_URL_CHARS} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('invalid-image-url', 'is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'file:') {
    return refuse('unsupported-scheme', `uses the ${url.protocol} scheme; only http:, https: and file: are accepted.`);
  }
  if (url.username || url.password) return refuse('invalid-image-url', 'contains a user name or password.');
  if (url.protocol !== 'file:' && url.hostname === '') return refuse('invalid-image-url', 'has no host name.');
  return { url: url.href, error: null };
}

/**
 * Streams the entries of a list without holding it in memory: text (blank lines and `#`
 * comments skipped) or CSV (a `url` column, other columns kept as metadata). `auto` picks CSV
 * when the first non-blank line is a header naming a `url` column.
 */
export async function* readUrlList(source: Readable, format: ListFormat = 'auto'): AsyncGenerator<ListEntry> {
  let input = source;
  let kind = format;
  if (kind === 'auto') {
    const sniffed = await sniffFormat(source);
    kind = sniffed.format;
    input = sniffed.stream;
  }
  yield* kind === 'csv' ? readCsv(input) : readText(input);
}

async function* readText(input: Readable): AsyncGenerator<ListEntry> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  for await (const raw of lines) {
    line++;
    const text = line === 1 ? raw.replace(/^\uFEFF/, '').trim() : raw.trim();
    if (text === '' || text.startsWith('#')) continue;
    yield { line, metadata: null, ...checkListUrl(text, line) };
  }
}

async function* readCsv(input: Readable): AsyncGenerator<ListEntry> {
  let urlColumn: string | undefined;
  const parser = input.pipe(
    parse({
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      info: true,
      columns: (header: string[]) => {
        const names = header.map((h) => h.trim());
        urlColumn = names.find((h) => h.toLowerCase() === 'url');
        if (!urlColumn) throw new AppError('invalid-input', `The CSV list has no "url" column (columns: ${names.join(', ')}).`);
        return names;
      },
    }),
  );
  for await (const { record: row, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
    const { [urlColumn!]: rawUrl = '', ...rest } = row;
    if (rawUrl.trim() === '' || rawUrl.trim().startsWith('#')) continue;
    const metadata = Object.keys(rest).length > 0 ? rest : null;
    yield { line: info.lines, metadata, ...checkListUrl(rawUrl, info.lines) };
  }
}

/** Reads up to the first non-blank line, decides the format, and hands back an equivalent stream. */
async function sniffFormat(source: Readable): Promise<{ format: 'txt' | 'csv'; stream: Readable }> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const head: Buffer[] = [];
  let text = '';
  let ended = false;
  while (!/\S[^\n]*\n/.test(text)) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    head.push(chunk);
    text += chunk.toString('utf8');
    if (text.length > 1 << 20) break; // a pathological first line: stop looking
  }
  const first = (
    text
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .find((l) => l.trim() !== '') ?? ''
  ).trim();
  const fields = first.split(/[,;\t]/).map((f) =>
    f
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase(),
  );
  const format = fields.includes('url') ? 'csv' : 'txt';
  async function* rest(): AsyncGenerator<Buffer> {
    yield* head;
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    }
  }
  return { format, stream: Readable.from(rest(), { objectMode: false }) };
}
