/**
 * The layout rules of URL lists, shared by the streaming import (main) and the preview (renderer)
 * so both read a list the same way. Runtime neutral: no Node or DOM APIs.
 */
import type { Result, WireError } from './errors';
import { checkListUrl, emptyUrlEntry, type ListEntry } from './list-url';

/** How an input list is laid out: one URL per line, a CSV with a `url` column, or sniffed. */
export type ListFormat = 'txt' | 'csv' | 'auto';

/** CSV field separators recognised in the header line, in order of preference. */
export const LIST_DELIMITERS = [',', ';', '\t'] as const;

/** A list's resolved layout. */
export type ListLayout = { format: 'txt' } | { format: 'csv'; delimiter: (typeof LIST_DELIMITERS)[number] };

/**
 * Longest line (text) or record (CSV) read, in characters (bytes for CSV). A longer one means the
 * file is not a URL list; the whole list is refused rather than held in memory.
 */
export const MAX_LIST_RECORD_CHARS = 1024 * 1024;

/** A line is a comment when it starts with `#` (after spaces), in text and CSV lists alike. */
export function isCommentLine(text: string): boolean {
  return text.trimStart().startsWith('#');
}

/** The first line that is neither blank nor a comment, or `undefined` when `text` has none yet. */
export function firstListLine(text: string): string | undefined {
  return splitLines(text).find((l) => l.trim() !== '' && !isCommentLine(l));
}

const headerName = (field: string): string =>
  field
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim()
    .toLowerCase();

/**
 * Decides the layout from the first non-blank, non-comment line: a CSV when the line, split on
 * `,`, `;` or tab, names a `url` column. `csv` without such a header still reads as CSV (comma),
 * and the header check then names the problem.
 */
export function detectListLayout(firstLine: string, format: ListFormat): ListLayout {
  if (format === 'txt') return { format: 'txt' };
  const delimiter = LIST_DELIMITERS.find((d) => firstLine.split(d).some((f) => headerName(f) === 'url'));
  if (delimiter) return { format: 'csv', delimiter };
  return format === 'csv' ? { format: 'csv', delimiter: ',' } : { format: 'txt' };
}

/**
 * csv-parse options for a list (the same in the streaming and the sync parser). Comments only
 * at the start of a line, so a URL's `#fragment` is kept; rows of only empty cells count as blank.
 */
export function listCsvOptions(delimiter: string) {
  return {
    bom: true,
    delimiter,
    comment: '#',
    comment_no_infix: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    relax_column_count: true,
    trim: true,
    info: true,
    max_record_size: MAX_LIST_RECORD_CHARS,
  } as const;
}

/** The header of a CSV list: column names and where the `url` column is. */
export interface CsvHeader {
  names: string[];
  urlIndex: number;
}

/** Reads the header record (ending on `line`): exactly one `url` column (any case) is required. */
export function readCsvHeader(fields: string[], line: number): Result<CsvHeader> {
  const names = fields.map((f) => f.trim());
  const urlColumns = names.flatMap((n, i) => (n.toLowerCase() === 'url' ? [i] : []));
  if (urlColumns.length === 1) return { ok: true, value: { names, urlIndex: urlColumns[0]! } };
  const message =
    urlColumns.length === 0
      ? `Line ${line}: the CSV list has no "url" column (columns: ${names.join(', ')}).`
      : `Line ${line}: the CSV list has ${urlColumns.length} "url" columns (columns ${urlColumns.map((i) => i + 1).join(' and ')}); keep one.`;
  return { ok: false, error: { code: 'invalid-list', message } };
}

/**
 * The entry of one CSV record (after the header); the other named columns become metadata.
 * `baseDir` reads a relative path in the `url` cell against that folder (`checkListUrl`).
 */
export function csvRecordEntry(fields: string[], header: CsvHeader, line: number, baseDir?: string): ListEntry {
  const metadata: Record<string, string> = {};
  header.names.forEach((name, i) => {
    if (i !== header.urlIndex && name !== '') metadata[name] = fields[i] ?? '';
  });
  const meta = Object.keys(metadata).length > 0 ? metadata : null;
  const raw = (fields[header.urlIndex] ?? '').trim();
  if (raw === '') return emptyUrlEntry(line, meta);
  return { line, metadata: meta, ...checkListUrl(raw, line, baseDir) };
}

/** The entry of one text line, or `null` for a blank or comment line; `baseDir` as for `csvRecordEntry`. */
export function textLineEntry(rawLine: string, line: number, baseDir?: string): ListEntry | null {
  const text = rawLine.trim();
  if (text === '' || isCommentLine(text)) return null;
  return { line, metadata: null, ...checkListUrl(text, line, baseDir) };
}

/** Splits text on LF or CRLF (a BOM at the start is dropped). */
export function splitLines(text: string): string[] {
  return stripBom(text).split(/\r?\n/);
}

/** Drops a leading byte-order mark. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The refusal of a text line longer than `MAX_LIST_RECORD_CHARS`. */
export function lineTooLong(line: number): WireError {
  return {
    code: 'invalid-list',
    message: `Line ${line}: longer than ${MAX_LIST_RECORD_CHARS} characters; this does not look like a URL list.`,
  };
}

/**
 * Names a csv-parse syntax error (bad quote, record too long) as a list problem with its line;
 * `undefined` for anything else.
 */
export function describeCsvError(err: unknown): WireError | undefined {
  const e = err as { code?: unknown; lines?: unknown; message?: unknown } | null;
  if (typeof e?.code !== 'string' || !/^(CSV_|INVALID_)/.test(e.code)) return undefined;
  const line = typeof e.lines === 'number' ? e.lines : undefined;
  const what =
    e.code === 'CSV_MAX_RECORD_SIZE'
      ? `a record longer than ${MAX_LIST_RECORD_CHARS} bytes; this does not look like a URL list`
      : /QUOTE/.test(e.code)
        ? `malformed CSV quote (${String(e.message).replace(/ at line \d+.*$/s, '')}); quote a field whole and double any quote inside it ("")`
        : `malformed CSV (${String(e.message)})`;
  return { code: 'invalid-list', message: `${line !== undefined ? `Line ${line}: ` : ''}${what}.` };
}
