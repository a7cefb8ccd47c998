import type { Facets, FacetCount, ItemStatus, Page, ResultFilter, ResultItem, ResultQuery, ResultSort } from '../shared/batch';
import type { Statement } from 'better-sqlite3';
import type { Db } from './db';
import { facetIndex } from './facet-index';
import { buildFilter, tagThreshold, type FilterSql } from './result-filter';

/** An item row with its result columns, as the browser and the exporters read it. */
export interface ItemRow {
  id: number;
  batch_id: number;
  url: string;
  status: ItemStatus;
  error_code: string | null;
  error_message: string | null;
  metadata: string | null;
  reused_from: number | null;
  worker: string | null;
  width: number | null;
  height: number | null;
  format: string | null;
  caption: string | null;
  caption_confidence: number | null;
  face_count: number | null;
  adult_score: number | null;
  racy_score: number | null;
  is_bw: number | null;
  clip_art_type: number | null;
  line_drawing_type: number | null;
  accent_color: string | null;
  has_thumb: number;
}

const SELECT = `SELECT i.id, i.batch_id, i.url, i.status, i.error_code, i.error_message, i.metadata, i.reused_from, i.worker,
  r.width, r.height, r.format, r.caption, r.caption_confidence, r.face_count, r.adult_score, r.racy_score, r.is_bw,
  r.clip_art_type, r.line_drawing_type, r.accent_color,
  EXISTS (SELECT 1 FROM thumbnails t WHERE t.item_id = i.id) AS has_thumb
  FROM items i LEFT JOIN results r ON r.item_id = i.id`;

const SORT_COLUMN: Record<ResultSort, string> = {
  id: 'i.id',
  faces: 'r.face_count',
  adult: 'r.adult_score',
  racy: 'r.racy_score',
  caption: 'r.caption',
};

type Stmt = Statement<unknown[]>;

const MAX_LIMIT = 500;
/** The tag threshold the stored batch facet counts use (migration 4). */
const STORED_TAG_THRESHOLD = 0.5;
const TOP_FACETS = 20;
/** Facets of at most this many matches are counted in SQL while the batch's facet index is not loaded. */
const SQL_FACETS_UNTIL = 5000;
/** Item statuses by a small code, so a match query can return id and status as one number. */
const STATUSES: readonly ItemStatus[] = ['queued', 'fetching', 'analyzing', 'done', 'failed', 'skipped'];
const STATUS_CODE = `CASE i.status ${STATUSES.map((s, k) => `WHEN '${s}' THEN ${k}`).join(' ')} END`;

/**
 * Read side of results: filtered pages, facet counts, single items and keyset-paged scans for
 * export. Filter SQL varies per request; statements are cached per SQL text.
 */
export class ResultsQuery {
  private readonly cache = new Map<string, Stmt>();
  private readonly facetCache = new Map<string, Facets>();
  private readonly storedTopStmt;
  private readonly dataVersionStmt;
  private readonly changesStmt;
  private readonly tagsStmt;
  private readonly catsStmt;
  private readonly colorsStmt;
  private readonly responseStmt;
  private readonly thumbStmt;
  private readonly namesStmt;
  private readonly minIdStmt;
  private lastMatch: { key: string; ids: number[]; byStatus: number[] } | undefined;
  private readonly maxIdStmt;

  /**
   * `sqlFacetsUntil`: while a batch's facet index is not loaded, filters with at most this many
   * matches are counted in SQL instead of loading it (default 5 000; tests set 0 to always use it).
   */
  constructor(
    private readonly db: Db,
    private readonly options: { sqlFacetsUntil?: number } = {},
  ) {
    this.tagsStmt = db.prepare<[number], { name: string; confidence: number }>(
      'SELECT name, confidence FROM result_tags WHERE item_id = ? ORDER BY confidence DESC',
    );
    this.catsStmt = db.prepare<[number], { name: string; score: number }>(
      'SELECT name, score FROM result_categories WHERE item_id = ? ORDER BY score DESC',
    );
    this.colorsStmt = db.prepare<[number], { name: string }>('SELECT name FROM result_colors WHERE item_id = ?');
    this.namesStmt = db.prepare<[number], { kind: string; name: string }>(
      'SELECT kind, name FROM result_names WHERE item_id = ? ORDER BY confidence DESC',
    );
    // One seek each on (batch_id, status, id); min() over the whole batch would scan its entries.
    this.minIdStmt = db.prepare<[number, string], { id: number | null }>(
      'SELECT min(id) AS id FROM items WHERE batch_id = ? AND status = ?',
    );
    this.maxIdStmt = db.prepare<[number, string], { id: number | null }>(
      'SELECT max(id) AS id FROM items WHERE batch_id = ? AND status = ?',
    );
    this.responseStmt = db.prepare<[number], { response: string }>('SELECT response FROM results WHERE item_id = ?');
    this.storedTopStmt = db.prepare<[number, string, number], FacetCount>(
      'SELECT name, count FROM batch_facets WHERE batch_id = ? AND kind = ? AND count > 0 ORDER BY count DESC, name LIMIT ?',
    );
    this.dataVersionStmt = db.prepare<[], { data_version: number }>('PRAGMA data_version');
    this.changesStmt = db.prepare<[], { n: number }>('SELECT total_changes() AS n');
    this.thumbStmt = db.prepare<[number], { mime: string; bytes: Buffer }>('SELECT mime, bytes FROM thumbnails WHERE item_id = ?');
  }

  page(q: ResultQuery): Page<ResultItem> {
    const f = buildFilter(q.filter);
    const sort = q.sort ?? 'id';
    const order = (q.order ?? (sort === 'id' || sort === 'caption' ? 'asc' : 'desc')) === 'asc' ? 'ASC' : 'DESC';
    const limit = Math.max(0, Math.min(MAX_LIMIT, Math.floor(q.limit ?? 50)));
    const offset = Math.max(0, Math.floor(q.offset ?? 0));
    const orderBy = sort === 'id' ? `i.id ${order}` : `${SORT_COLUMN[sort]} ${order} NULLS LAST, i.id ${order}`;
    const span = q.filter.batchId !== undefined && sort === 'id' ? this.span(q.filter.batchId) : undefined;
    let rows: ItemRow[] | undefined;
    if (span && f.itemsOnly) {
      // A batch's items have contiguous ids (one import): walking the rowid range in order stops
      // after `offset + limit` rows instead of sorting the whole batch.
      const sql = SELECT.replace('FROM items i', 'FROM items i NOT INDEXED');
      rows = this.stmt(`${sql} WHERE i.id BETWEEN ? AND ? AND ${f.where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`).all(
        span[0],
        span[1],
        ...f.params,
        limit,
        offset,
      ) as ItemRow[];
    } else if (span && /\br\./.test(f.where) && !f.where.includes('IN (SELECT')) {
      // Result-column filters only (no child-table lists to build first): walk the first ids in
      // order; a broad filter fills the page within them, far cheaper than sorting every match.
      // Too few there, and the page comes from the full sort below.
      const reach = Math.max(1000, 20 * (offset + limit));
      if (span[1] - span[0] + 1 > reach) {
        const [lo, hi] = order === 'ASC' ? [span[0], span[0] + reach - 1] : [span[1] - reach + 1, span[1]];
        const sql = SELECT.replace('FROM items i', 'FROM items i NOT INDEXED');
        const found = this.stmt(`${sql} WHERE i.id BETWEEN ? AND ? AND ${f.where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`).all(
          lo,
          hi,
          ...f.params,
          limit,
          offset,
        ) as ItemRow[];
        if (found.length === limit) rows = found;
      }
    }
    if (!rows) {
      // Sort only the ids, then read the page's rows: a sort that carried every selected column
      // (and the thumbnail check) of tens of thousands of matches cost more than the rest.
      const from = f.itemsOnly && sort === 'id' ? 'items i' : 'items i LEFT JOIN results r ON r.item_id = i.id';
      const ids = this.stmt(`SELECT i.id FROM ${from} WHERE ${f.where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`)
        .pluck()
        .all(...f.params, limit, offset) as number[];
      const byId = new Map(
        (this.stmt(`${SELECT} WHERE i.id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as ItemRow[]).map((r) => [r.id, r]),
      );
      rows = ids.map((id) => byId.get(id)!);
    }
    // A result-level filter's matching ids are what its facets need next (the browser asks for
    // both on every filter change): collecting them costs about what count(*) does.
    const total =
      q.filter.batchId !== undefined && !f.itemsOnly
        ? this.matches(q.filter, f).ids.length
        : (
            this.stmt(
              `SELECT count(*) AS n FROM ${f.itemsOnly ? 'items i' : 'items i LEFT JOIN results r ON r.item_id = i.id'} WHERE ${f.where}`,
            ).get(...f.params) as { n: number }
          ).n;
    return { items: rows.map((row) => this.toItem(row)), total, offset, limit };
  }

  /**
   * Facet counts for the filter. A whole batch, optionally narrowed by status only, is answered
   * from the trigger-maintained `batch_facets` counts; any other filter within a batch selects
   * its matching ids and counts them with the in-memory facet index (facet-index.ts); a filter
   * across batches counts its matches in SQL. Answers are cached until the database changes
   * (this connection or another process).
   */
  facets(filter: ResultFilter): Facets {
    const key = `${JSON.stringify(filter)}|${this.version()}`;
    const hit = this.facetCache.get(key);
    if (hit) return structuredClone(hit);
    const f = buildFilter(filter);
    // Inside a caller's transaction the index could learn changes that are then rolled back.
    const facets = this.isStoredView(filter, f)
      ? this.storedFacets(filter, f)
      : filter.batchId !== undefined && !this.db.inTransaction
        ? this.indexedFacets(filter.batchId, filter, f)
        : this.liveFacets(filter, f);
    if (this.facetCache.size >= 64) this.facetCache.delete(this.facetCache.keys().next().value!);
    this.facetCache.set(key, facets);
    return structuredClone(facets);
  }

  private isStoredView(filter: ResultFilter, f: FilterSql): boolean {
    return filter.batchId !== undefined && f.itemsOnly && tagThreshold(filter) === STORED_TAG_THRESHOLD;
  }

  private storedFacets(filter: ResultFilter, f: FilterSql): Facets {
    const status = this.stmt(
      `SELECT i.status AS name, count(*) AS count FROM items i WHERE ${f.where} GROUP BY i.status ORDER BY count DESC, name`,
    ).all(...f.params) as FacetCount[];
    const total = status.reduce((n, s) => n + s.count, 0);
    // Only done items have results: without 'done' in the status filter every result facet is empty.
    const withResults = !filter.status?.length || filter.status.includes('done');
    const top = (kind: string): FacetCount[] =>
      withResults ? (this.storedTopStmt.all(filter.batchId!, kind, TOP_FACETS) as FacetCount[]) : [];
    const flags = new Map(withResults ? this.storedTopStmt.all(filter.batchId!, 'flag', 10).map((r) => [r.name, r.count]) : []);
    return {
      total,
      status,
      withFaces: flags.get('withFaces') ?? 0,
      bw: flags.get('bw') ?? 0,
      clipArt: flags.get('clipArt') ?? 0,
      lineDrawing: flags.get('lineDrawing') ?? 0,
      tags: top('tag'),
      categories: top('category'),
      colors: top('color'),
    };
  }

  /**
   * Counts facets of a filter within one batch: one query returns the matching ids with their
   * status, the facet index counts their flags, tags, categories and colours. One read
   * transaction, so the index is brought up to exactly the snapshot the ids come from.
   */
  private indexedFacets(batchId: number, filter: ResultFilter, f: FilterSql): Facets {
    return this.db.transaction((): Facets => {
      const { ids, byStatus } = this.matches(filter, f);
      // Until a broad filter needs it, the batch's index is not loaded (a one-off ~0.5 s per
      // 100 000 results): a few thousand matches are as quick to count in SQL.
      const index = facetIndex(this.db);
      if (ids.length <= (this.options.sqlFacetsUntil ?? SQL_FACETS_UNTIL) && !index.loaded(batchId)) return this.liveFacets(filter, f);
      const status = STATUSES.map((name, k) => ({ name, count: byStatus[k]! }))
        .filter((s) => s.count > 0)
        .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1));
      return { total: ids.length, status, ...index.count(batchId, ids, tagThreshold(filter), TOP_FACETS) };
    })();
  }

  /**
   * The ids of the items matching a filter, with counts per status: one query, returning id and
   * status as one number per row. The last answer is kept while the database is unchanged, so
   * a page and then the facets of one filter run the query once.
   */
  private matches(filter: ResultFilter, f: FilterSql): { ids: number[]; byStatus: number[] } {
    const key = `${JSON.stringify(filter)}|${this.version()}`;
    if (this.lastMatch?.key === key) return this.lastMatch;
    const from = f.itemsOnly ? 'items i' : 'items i LEFT JOIN results r ON r.item_id = i.id';
    const ids = this.stmt(`SELECT i.id * 8 + ${STATUS_CODE} AS m FROM ${from} WHERE ${f.where}`)
      .pluck()
      .all(...f.params) as number[];
    const byStatus = new Array<number>(STATUSES.length).fill(0);
    for (let k = 0; k < ids.length; k++) {
      const m = ids[k]!;
      byStatus[m % 8]!++;
      ids[k] = Math.floor(m / 8);
    }
    this.lastMatch = { key, ids, byStatus };
    return this.lastMatch;
  }

  /**
   * Counts facets of a filter across batches in SQL: the matching ids go into a temp table once, then each
   * facet joins it, so the cost follows the number of matches rather than the batch size.
   */
  private liveFacets(filter: ResultFilter, f: FilterSql): Facets {
    return this.db.transaction((): Facets => {
      this.db.exec('CREATE TEMP TABLE IF NOT EXISTS facet_match (id INTEGER PRIMARY KEY)');
      this.db.exec('DELETE FROM temp.facet_match');
      this.stmt(`INSERT INTO temp.facet_match (id) SELECT i.id FROM items i LEFT JOIN results r ON r.item_id = i.id WHERE ${f.where}`).run(
        ...f.params,
      );
      const agg = this.stmt(
        `SELECT count(*) AS total, coalesce(sum(r.face_count > 0), 0) AS withFaces, coalesce(sum(r.is_bw = 1), 0) AS bw,
           coalesce(sum(r.clip_art_type >= 2), 0) AS clipArt, coalesce(sum(r.line_drawing_type = 1), 0) AS lineDrawing
         FROM temp.facet_match m LEFT JOIN results r ON r.item_id = m.id`,
      ).get() as Omit<Facets, 'tags' | 'categories' | 'colors' | 'status'>;
      const status = this.stmt(
        'SELECT i.status AS name, count(*) AS count FROM temp.facet_match m CROSS JOIN items i ON i.id = m.id GROUP BY i.status ORDER BY count DESC, name',
      ).all() as FacetCount[];
      const child = (table: string, extra = '', params: unknown[] = []): FacetCount[] =>
        this.stmt(
          `SELECT c.name AS name, count(*) AS count FROM temp.facet_match m CROSS JOIN ${table} c ON c.item_id = m.id ${extra}
           GROUP BY c.name ORDER BY count DESC, name LIMIT ${TOP_FACETS}`,
        ).all(...params) as FacetCount[];
      return {
        ...agg,
        status,
        tags: child('result_tags', 'WHERE c.confidence >= ?', [tagThreshold(filter)]),
        categories: child('result_categories'),
        colors: child('result_colors'),
      };
    })();
  }

  /** Lowest and highest item id of a batch (two index seeks per status), undefined when empty. */
  private span(batchId: number): [number, number] | undefined {
    let lo = Infinity;
    let hi = -Infinity;
    for (const status of STATUSES) {
      lo = Math.min(lo, this.minIdStmt.get(batchId, status)?.id ?? Infinity);
      hi = Math.max(hi, this.maxIdStmt.get(batchId, status)?.id ?? -Infinity);
    }
    return lo <= hi ? [lo, hi] : undefined;
  }

  /** The full stored response of one item (null until done). */
  response(itemId: number): unknown {
    const row = this.responseStmt.get(itemId);
    return row ? (JSON.parse(row.response) as unknown) : null;
  }

  item(itemId: number): ResultItem | undefined {
    const row = this.stmt(`${SELECT} WHERE i.id = ?`).get(itemId) as ItemRow | undefined;
    return row && this.toItem(row);
  }

  thumbnail(itemId: number): { mime: string; bytes: Uint8Array } | undefined {
    return this.thumbStmt.get(itemId);
  }

  /**
   * Keyset-paged scan in id order for export: short read statements, so a running batch can
   * keep writing between pages and memory stays at one page.
   */
  *scan(filter: ResultFilter, pageSize = 500): Generator<ExportRow[]> {
    const f = buildFilter(filter);
    const stmt = this.stmt(`${SELECT} WHERE ${f.where} AND i.id > ? ORDER BY i.id LIMIT ?`);
    for (let after = 0; ;) {
      const rows = stmt.all(...f.params, after, pageSize) as ItemRow[];
      if (rows.length === 0) return;
      after = rows[rows.length - 1]!.id;
      yield rows.map((row) => ({ row, ...this.children(row.id) }));
    }
  }

  /** Tags, categories, colours and names of one item, for export. */
  children(itemId: number): Omit<ExportRow, 'row'> {
    const names = this.namesStmt.all(itemId);
    return {
      tags: this.tagsStmt.all(itemId),
      categories: this.catsStmt.all(itemId),
      colors: this.colorsStmt.all(itemId).map((c) => c.name),
      celebrities: names.filter((n) => n.kind === 'celebrity').map((n) => n.name),
      landmarks: names.filter((n) => n.kind === 'landmark').map((n) => n.name),
    };
  }

  private toItem(row: ItemRow): ResultItem {
    const done = row.status === 'done';
    return {
      itemId: row.id,
      batchId: row.batch_id,
      url: row.url,
      status: row.status,
      error: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
      width: row.width,
      height: row.height,
      format: row.format,
      caption: row.caption,
      tags: done ? this.tagsStmt.all(row.id).slice(0, 10) : [],
      categories: done ? this.catsStmt.all(row.id) : [],
      faceCount: row.face_count,
      adultScore: row.adult_score,
      racyScore: row.racy_score,
      isBW: row.is_bw === null ? null : row.is_bw === 1,
      clipArtType: row.clip_art_type,
      lineDrawingType: row.line_drawing_type,
      dominantColors: done ? this.colorsStmt.all(row.id).map((c) => c.name) : [],
      accentColor: row.accent_color,
      reused: row.reused_from !== null,
      worker: row.worker,
      hasThumbnail: row.has_thumb === 1,
      metadata: row.metadata ? (JSON.parse(row.metadata) as Record<string, string>) : null,
    };
  }

  // Changes by other connections bump data_version; changes by this one, total_changes().
  private version(): string {
    return `${this.dataVersionStmt.get()!.data_version}.${this.changesStmt.get()!.n}`;
  }

  private stmt(sql: string): Stmt {
    let s = this.cache.get(sql);
    if (!s) {
      s = this.db.prepare<unknown[]>(sql);
      if (this.cache.size > 200) this.cache.clear();
      this.cache.set(sql, s);
    }
    return s;
  }
}

/** One item for export: its row plus child lists. */
export interface ExportRow {
  row: ItemRow;
  tags: Array<{ name: string; confidence: number }>;
  categories: Array<{ name: string; score: number }>;
  colors: string[];
  celebrities: string[];
  landmarks: string[];
}
