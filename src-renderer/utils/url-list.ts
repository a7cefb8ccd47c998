import type { UrlListInput } from '../../src-main/shared';

/** What a URL list holds, counted before the batch starts. */
export interface UrlListPreview {
  /** Non-blank, non-comment lines (or CSV records) read. */
  read: number;
  valid: number;
  invalid: number;
  duplicates: number;
  /** The first few invalid entries, as written, for the user to fix. */
  invalidSamples: string[];
  /** Set when a CSV has no `url` column. */
  problem: string | null;
}

/** Guesses the list format from a file name (`.csv` → csv, anything else → txt). */
export function formatOf(fileName: string | null): UrlListInput['format'] {
  return fileName?.toLowerCase().endsWith('.csv') ? 'csv' : 'txt';
}

function isImageUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && !url.username && !url.password;
  } catch {
    return false;
  }
}

// Minimal CSV field split with quotes ("a,b" and "" escapes), enough to find the url column.
function splitCsv(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(field);
      field = '';
    } else field += ch;
  }
  out.push(field);
  return out;
}

/** Reads a URL list the way a batch will: blank lines and `#` comments skipped, duplicates collapsed. */
export function previewUrlList(input: UrlListInput, maxSamples = 5): UrlListPreview {
  const lines = input.text.split(/\r?\n/);
  const preview: UrlListPreview = { read: 0, valid: 0, invalid: 0, duplicates: 0, invalidSamples: [], problem: null };
  let column = -1;
  let start = 0;
  if (input.format === 'csv') {
    const header = lines.findIndex((l) => l.trim() !== '');
    if (header === -1) return preview;
    column = splitCsv(lines[header] ?? '').findIndex((h) => h.trim().toLowerCase() === 'url');
    if (column === -1) return { ...preview, problem: 'The CSV file has no "url" column in its first line.' };
    start = header + 1;
  }
  const seen = new Set<string>();
  for (let i = start; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '' || (input.format === 'txt' && line.startsWith('#'))) continue;
    const url = (column >= 0 ? (splitCsv(line)[column] ?? '') : line).trim();
    preview.read++;
    if (seen.has(url)) {
      preview.duplicates++;
      continue;
    }
    seen.add(url);
    if (isImageUrl(url)) preview.valid++;
    else {
      preview.invalid++;
      if (preview.invalidSamples.length < maxSamples) preview.invalidSamples.push(url || '(empty)');
    }
  }
  return preview;
}
