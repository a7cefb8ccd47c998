import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { AppError } from '../core';
import type { WireError } from '../shared/errors';
import {
  csvRecordEntry,
  describeCsvError,
  detectListLayout,
  firstListLine,
  lineTooLong,
  listCsvOptions,
  MAX_LIST_RECORD_CHARS,
  readCsvHeader,
  stripBom,
  textLineEntry,
  type ListFormat,
} from '../shared/list-layout';
import type { ListEntry } from '../shared/list-url';
import { notTextList } from './list-content';

export { checkListUrl, MAX_LIST_URL_CHARS, type ListEntry } from '../shared/list-url';
export type { ListFormat } from '../shared/list-layout';

/**
 * Streams the entries of a list without holding it in memory, with the layout rules the UI's
 * preview uses (`src-main/shared/list-layout.ts`): text (blank lines and `#` comments skipped) or
 * CSV (one `url` column; other columns kept as metadata; `,`, `;` or tab from the header line).
 * A list that cannot be read as a whole (bad quote, no or two `url` columns) throws `invalid-list`
 * naming the line. `baseDir`, an absolute folder, reads relative paths against it (`checkListUrl`):
 * `picscan batch` gives the list file's folder, or the working directory for stdin; without it
 * (the UI: a pasted list has no folder) a relative path is an invalid line.
 */
export async function* readUrlList(source: Readable, format: ListFormat = 'auto', baseDir?: string): AsyncGenerator<ListEntry> {
  const chunks = decodeUtf8(source);
  const { head, done } = await readHead(chunks);
  const layout = detectListLayout(firstListLine(head) ?? '', format);
  const text = withHead(head, done ? null : chunks);
  yield* layout.format === 'csv' ? readCsv(text, layout.delimiter, baseDir) : readText(text, baseDir);
}

async function* readText(text: AsyncIterable<string>, baseDir: string | undefined): AsyncGenerator<ListEntry> {
  let line = 0;
  let pending = '';
  const take = function* (raw: string): Generator<ListEntry> {
    line++;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.length > MAX_LIST_RECORD_CHARS) throw listError(lineTooLong(line));
    const entry = textLineEntry(text, line, baseDir);
    if (entry) yield entry;
  };
  for await (const chunk of text) {
    pending += chunk;
    let start = 0;
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n', start)) {
      yield* take(pending.slice(start, nl));
      start = nl + 1;
    }
    pending = pending.slice(start);
    if (pending.length > MAX_LIST_RECORD_CHARS) throw listError(lineTooLong(line + 1));
  }
  if (pending !== '') yield* take(pending);
}

async function* readCsv(text: AsyncIterable<string>, delimiter: string, baseDir: string | undefined): AsyncGenerator<ListEntry> {
  const records = Readable.from(text).pipe(parse(listCsvOptions(delimiter)));
  let header: ReturnType<typeof readCsvHeader> | undefined;
  try {
    for await (const { record, info } of records as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!header) {
        header = readCsvHeader(record, info.lines);
        if (!header.ok) throw listError(header.error);
        continue;
      }
      if (header.ok) yield csvRecordEntry(record, header.value, info.lines, baseDir);
    }
  } catch (err) {
    const problem = describeCsvError(err);
    throw problem ? listError(problem, err) : err;
  } finally {
    records.destroy();
  }
}

function listError(problem: WireError, cause?: unknown): AppError {
  return new AppError(problem.code, problem.message, { cause });
}

/** How many leading bytes of a list are looked at to tell UTF-16 from UTF-8. */
const ENCODING_SNIFF_BYTES = 4096;

/**
 * Share of NUL bytes in those from which a list without a BOM is taken for UTF-16: its ASCII
 * (URLs, headers) is every other byte NUL, while UTF-8 text has none.
 */
const UTF16_NUL_SHARE = 0.2;

/** True when the list's first bytes are UTF-16 (or UTF-32): a BOM of either byte order, or many NUL bytes. */
function looksUtf16(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, ENCODING_SNIFF_BYTES);
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return true;
  const nuls = head.reduce((n, b) => (b === 0 ? n + 1 : n), 0);
  return head.length > 0 && nuls / head.length >= UTF16_NUL_SHARE;
}

/**
 * Decodes UTF-8 across chunk boundaries; a leading BOM is dropped. A UTF-16 list (Excel's
 * "Unicode Text", Notepad's "Unicode") is refused up front: read as UTF-8 it is NUL-laden text,
 * and messages quoting its lines would print those bytes to the terminal.
 */
async function* decodeUtf8(source: Readable): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8'); // drops a BOM in bytes
  let first = true;
  for await (const chunk of source as AsyncIterable<Buffer | string>) {
    if (first && typeof chunk !== 'string') {
      const head = chunk.subarray(0, ENCODING_SNIFF_BYTES);
      const notText = notTextList(head);
      if (notText) throw new AppError('invalid-list', notText);
      if (looksUtf16(head))
        throw new AppError('invalid-list', 'The list is UTF-16 text; save it as UTF-8 (in Excel: CSV UTF-8) and try again.');
    }
    let text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (first && text !== '') {
      text = stripBom(text); // a BOM in a string source
      first = false;
    }
    if (text !== '') yield text;
  }
  const tail = decoder.decode();
  if (tail !== '') yield tail;
}

/** Reads until the first non-blank, non-comment line is complete (it decides the layout). */
async function readHead(chunks: AsyncIterator<string>): Promise<{ head: string; done: boolean }> {
  let head = '';
  for (;;) {
    const lastNewline = head.lastIndexOf('\n');
    if (lastNewline !== -1 && firstListLine(head.slice(0, lastNewline)) !== undefined) return { head, done: false };
    if (head.length > MAX_LIST_RECORD_CHARS) return { head, done: false }; // no header in sight: let the reader refuse it
    const next = await chunks.next();
    if (next.done) return { head, done: true };
    head += next.value;
  }
}

async function* withHead(head: string, rest: AsyncIterator<string> | null): AsyncGenerator<string> {
  if (head !== '') yield head;
  if (!rest) return;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}
