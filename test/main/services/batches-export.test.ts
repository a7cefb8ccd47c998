import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, excelSafe } from '../../../src-main/services/export-rows';
import type { ExportFormat, ResultFilter } from '../../../src-main/shared/batch';
import { createTestDb } from '../../helpers/db';
import { fakeProcessor, makeService } from '../jobs/support';
import { seedBatch } from '../store/seed';

const db = createTestDb();
const batchId = seedBatch(db, 120, 3);
const service = makeService(db, fakeProcessor());

async function exportText(format: ExportFormat, filter: ResultFilter = { batchId }): Promise<{ text: string; count: number }> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const count = await service.export(filter, format, out);
  out.end();
  return { text: Buffer.concat(chunks).toString('utf8'), count };
}

describe('export', () => {
  it('writes CSV that a CSV parser reads back as the stored rows', async () => {
    const { text, count } = await exportText('csv');
    expect(count).toBe(123);
    const records = parse(text, { columns: true }) as Array<Record<(typeof CSV_COLUMNS)[number], string>>;
    expect(Object.keys(records[0]!)).toEqual([...CSV_COLUMNS]);
    const rows = db
      .prepare(
        `SELECT i.url, i.status, i.error_code, i.error_message, r.width, r.height, r.format, r.caption, r.caption_confidence, r.face_count, r.adult_score,
           r.racy_score, r.accent_color, r.is_bw, r.clip_art_type, r.line_drawing_type
         FROM items i LEFT JOIN results r ON r.item_id = i.id WHERE i.batch_id = ? ORDER BY i.id`,
      )
      .all(batchId) as Array<Record<string, string | number | null>>;
    expect(records).toHaveLength(rows.length);
    const cell = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
    rows.forEach((row, k) => {
      const rec = records[k]!;
      expect(rec.url).toBe(row.url);
      expect(rec.status).toBe(row.status);
      expect(rec.error).toBe(row.error_code ? `${String(row.error_code)}: ${String(row.error_message)}` : '');
      for (const col of [
        'width',
        'height',
        'format',
        'caption_confidence',
        'face_count',
        'adult_score',
        'racy_score',
        'accent_color',
        'clip_art_type',
        'line_drawing_type',
      ] as const) {
        expect(rec[col]).toBe(cell(row[col]));
      }
      expect(rec.caption).toBe(row.caption === null ? '' : excelSafe(String(row.caption)));
      expect(rec.is_bw).toBe(row.is_bw === null ? '' : row.is_bw ? 'true' : 'false');
      if (row.status === 'done') {
        const faces = Number(row.face_count);
        expect(rec.ages.split('; ').filter(Boolean)).toHaveLength(faces);
        expect(rec.genders.split('; ').filter(Boolean)).toHaveLength(faces);
        expect(rec.tags.split('; ')[0]).toBe('thing');
        expect(rec.dominant_colors).toContain('White');
      }
    });
    expect(records[0]!.caption.startsWith("'=cmd")).toBe(true); // formula neutralised
    expect(JSON.parse(records[0]!.metadata)).toEqual({ note: '+SUM(A1)' }); // input CSV columns, as JSON
    expect(records[1]!.metadata).toBe('');
    expect(records.filter((r) => r.celebrities === 'Grace Hopper')).toHaveLength(3);
  });

  it('applies the filter and writes JSON and NDJSON with the full responses', async () => {
    const filter: ResultFilter = { batchId, tags: ['dog'], minFaces: 1 };
    const expected = service.resultsPage({ filter, limit: 500 }).items.map((i) => i.itemId);
    const json = await exportText('json', filter);
    const arr = JSON.parse(json.text) as Array<{ itemId: number; response: { requestId: string } }>;
    expect(arr.map((x) => x.itemId)).toEqual(expected);
    expect(arr[0]!.response).toEqual(service.result(expected[0]!).response);
    const nd = await exportText('ndjson', filter);
    expect(
      nd.text
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { itemId: number }).itemId),
    ).toEqual(expected);
    expect(JSON.parse((await exportText('json', { batchId, captionText: 'nothing like this' })).text)).toEqual([]);
    // A batch that does not exist is an error, not an export of nothing.
    await expect(exportText('csv', { batchId: 999 })).rejects.toMatchObject({ code: 'not-found', message: 'There is no batch 999.' });
  });

  it('makes text cells Excel-safe', () => {
    for (const bad of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(excelSafe(bad)).toBe(`'${bad}`);
    expect(excelSafe('http://a/=b')).toBe('http://a/=b');
  });
});
