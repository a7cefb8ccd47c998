import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { ResultsQuery } from '../store';
import type { ExportFormat, ResultFilter } from '../shared/batch';
import { CSV_COLUMNS, excelSafe, flattenRow } from './export-rows';

/** Optional extras of an export. */
export interface ExportOptions {
  /**
   * Thumbnail file name per item id (`export --thumbnails`): CSV gets a `thumbnail` column after
   * the others, JSON/NDJSON a `thumbnail` field; items without one get an empty cell / null.
   */
  thumbnails?: ReadonlyMap<number, string>;
}

/**
 * Streams the items matching `filter` to `out`, one keyset page at a time, waiting for `drain`
 * so a million rows never sit in memory. CSV quoting is csv-stringify's; text cells are made
 * Excel-safe. JSON is one array of `{ itemId, url, status, error, reused, worker, metadata, response }`,
 * NDJSON the same objects one per line. Does not end `out`. Resolves to the number of items.
 */
export async function exportResults(
  query: ResultsQuery,
  filter: ResultFilter,
  format: ExportFormat,
  out: Writable,
  opts: ExportOptions = {},
): Promise<number> {
  const { thumbnails } = opts;
  const columns: string[] = thumbnails ? [...CSV_COLUMNS, 'thumbnail'] : [...CSV_COLUMNS];
  let count = 0;
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await once(out, 'drain');
  };
  if (format === 'json') await write('[');
  for (const page of query.scan(filter)) {
    let chunk = '';
    if (format === 'csv') {
      const records = page.map((x) => ({
        ...flattenRow(x, x.row.status === 'done' ? query.response(x.row.id) : null),
        ...(thumbnails && { thumbnail: thumbnails.get(x.row.id) ?? null }),
      }));
      chunk = stringify(records, {
        header: count === 0,
        columns,
        cast: { string: excelSafe, boolean: (b) => (b ? 'true' : 'false') },
      });
    } else {
      const lines = page.map((x) =>
        JSON.stringify({
          itemId: x.row.id,
          url: x.row.url,
          status: x.row.status,
          error: x.row.error_code ? { code: x.row.error_code, message: x.row.error_message } : null,
          reused: x.row.reused_from !== null,
          worker: x.row.worker,
          metadata: x.row.metadata ? (JSON.parse(x.row.metadata) as unknown) : null,
          response: x.row.status === 'done' ? query.response(x.row.id) : null,
          ...(thumbnails && { thumbnail: thumbnails.get(x.row.id) ?? null }),
        }),
      );
      chunk = format === 'json' ? (count === 0 ? '\n' : ',\n') + lines.join(',\n') : `${lines.join('\n')}\n`;
    }
    count += page.length;
    await write(chunk);
  }
  if (format === 'csv' && count === 0) await write(stringify([], { header: true, columns }));
  if (format === 'json') await write(count === 0 ? ']\n' : '\n]\n');
  return count;
}
