import type { ResultFilter } from '../shared/batch';

/** A WHERE clause over `items i LEFT JOIN results r`, with its parameters. */
export interface FilterSql {
  where: string;
  params: unknown[];
  /** True when only `i.batch_id` is constrained (facets can then skip the item subquery). */
  batchOnly: boolean;
  /** True when only item columns (batch, status) are constrained: no join with results needed. */
  itemsOnly: boolean;
}

const DEFAULT_TAG_CONFIDENCE = 0.5;

/** Tag threshold used by the filter and tag facets (0..1). */
export function tagThreshold(f: ResultFilter): number {
  return f.tagMinConfidence ?? DEFAULT_TAG_CONFIDENCE;
}

/**
 * Builds the filter. Child-table filters are written as `i.id IN (SELECT item_id … WHERE
 * batch_id = ? AND name = ?)` so SQLite drives them from the (batch_id, name, …) indexes.
 * Caption search of ≥ 3 characters uses the FTS5 trigram index, shorter text a LIKE.
 */
export function buildFilter(f: ResultFilter): FilterSql {
  const conds: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, ...p: unknown[]): void => {
    conds.push(sql);
    params.push(...p);
  };
  const inBatch = f.batchId !== undefined;
  // Child tables carry batch_id; constraining it lets the composite indexes lead.
  const batchCond = inBatch ? 'batch_id = ? AND ' : '';
  const batchParam = inBatch ? [f.batchId] : [];

  if (inBatch) add('i.batch_id = ?', f.batchId);
  if (f.status?.length) add(`i.status IN (${marks(f.status.length)})`, ...f.status);
  const itemConds = conds.length;
  for (const tag of f.tags ?? []) {
    add(`i.id IN (SELECT item_id FROM result_tags WHERE ${batchCond}name = ? AND confidence >= ?)`, ...batchParam, tag, tagThreshold(f));
  }
  if (f.categories?.length) {
    add(
      `i.id IN (SELECT item_id FROM result_categories WHERE ${batchCond}name IN (${marks(f.categories.length)}))`,
      ...batchParam,
      ...f.categories,
    );
  }
  if (f.colors?.length) {
    add(`i.id IN (SELECT item_id FROM result_colors WHERE ${batchCond}name IN (${marks(f.colors.length)}))`, ...batchParam, ...f.colors);
  }
  if (f.minFaces !== undefined) add('r.face_count >= ?', f.minFaces);
  if (f.maxFaces !== undefined) add('r.face_count <= ?', f.maxFaces);
  if (f.minAdult !== undefined) add('r.adult_score >= ?', f.minAdult);
  if (f.maxAdult !== undefined) add('r.adult_score <= ?', f.maxAdult);
  if (f.minRacy !== undefined) add('r.racy_score >= ?', f.minRacy);
  if (f.maxRacy !== undefined) add('r.racy_score <= ?', f.maxRacy);
  if (f.isBW !== undefined) add('r.is_bw = ?', f.isBW ? 1 : 0);
  if (f.minClipArt !== undefined) add('r.clip_art_type >= ?', f.minClipArt);
  if (f.lineDrawing !== undefined) add('r.line_drawing_type = ?', f.lineDrawing ? 1 : 0);
  for (const [kind, name] of [
    ['celebrity', f.celebrity],
    ['landmark', f.landmark],
  ] as const) {
    if (name === undefined || name.trim() === '') continue;
    add(
      `i.id IN (SELECT item_id FROM result_names WHERE ${batchCond}kind = ? AND name = ? COLLATE NOCASE)`,
      ...batchParam,
      kind,
      name.trim(),
    );
  }
  const text = f.captionText?.trim();
  if (text) {
    if ([...text].length >= 3) add('i.id IN (SELECT rowid FROM result_captions WHERE result_captions MATCH ?)', ftsPhrase(text));
    else add(`r.caption LIKE ? ESCAPE '\\'`, `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  const itemsOnly = conds.length === itemConds;
  // Result columns are indexed as (batch_id, column): naming r's batch lets those indexes lead.
  if (inBatch && conds.some((c) => c.startsWith('r.'))) add('r.batch_id = ?', f.batchId);
  return { where: conds.length ? conds.join(' AND ') : '1', params, batchOnly: inBatch && conds.length === 1, itemsOnly };
}

const marks = (n: number): string => Array(n).fill('?').join(', ');

// One FTS5 phrase: the user's text is data, never query syntax.
const ftsPhrase = (text: string): string => `"${text.replace(/"/g, '""')}"`;
