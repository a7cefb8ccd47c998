/**
 * What the New batch view shows of a list it holds instead of putting it in the textarea: its
 * size and its first lines. Linear scans only (no split of the whole text, no copy of it in the
 * common all-ASCII case), so a million-line list is summed up in tens of ms on the page.
 */

/** Lines shown of a held list: enough to recognise it, cheap to lay out. */
export const HEAD_LINES = 10;
/** Longest line shown, characters: a line may be a 64 KiB URL, or a whole file without newlines. */
export const HEAD_LINE_CHARS = 200;

export interface ListSummary {
  /** Lines of the text (a last line without a newline counts; blank and comment lines too). */
  lines: number;
  /** Size of the text in UTF-8, bytes: as the file was on disk, or as it is sent. */
  bytes: number;
  /** The first HEAD_LINES lines, each cut to HEAD_LINE_CHARS (then ending in "…"). */
  head: string[];
}

function lineCount(text: string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return text.length > 0 && !text.endsWith('\n') ? lines + 1 : lines;
}

function utf8Bytes(text: string): number {
  // URL lists are ASCII as a rule: one regex scan then, and no encoded copy of the text.
  return text.search(/[\u0080-\uffff]/) === -1 ? text.length : new TextEncoder().encode(text).byteLength;
}

function headOf(text: string): string[] {
  const head: string[] = [];
  let from = 0;
  while (head.length < HEAD_LINES && from < text.length) {
    const newline = text.indexOf('\n', from);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(from, Math.min(end, from + HEAD_LINE_CHARS + 1)).replace(/\r$/, '');
    head.push(line.length > HEAD_LINE_CHARS ? `${line.slice(0, HEAD_LINE_CHARS)}…` : line);
    from = end + 1;
  }
  return head;
}

export function summariseList(text: string): ListSummary {
  return { lines: lineCount(text), bytes: utf8Bytes(text), head: headOf(text) };
}

/** "6.1 MB": the size in decimal megabytes, as file managers show it. */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;
}
