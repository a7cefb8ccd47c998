import type { Db } from './db';
import type { ResultColumns } from './result-columns';

/** A finished analysis to store for one item. */
export interface NewResult {
  itemId: number;
  batchId: number;
  sha256: string;
  /** Identifies operation + options + backend: only results with the same key are reused. */
  opKey: string;
  /** The full spec JSON, stored verbatim. */
  response: unknown;
  columns: ResultColumns;
  thumbnail: { mime: string; bytes: Uint8Array } | null;
  analyzeMs: number;
}

const RESULT_COLS = `sha256, op_key, response, width, height, format, caption, caption_confidence, face_count, adult_score,
  racy_score, is_bw, clip_art_type, line_drawing_type, accent_color, dominant_foreground, dominant_background`;

/**
 * Writes results. Each write and the item's move to `done` happen in one transaction, and only
 * from an in-progress status, so a crash can never leave a result without `done` (or the reverse)
 * and an item is never completed twice.
 */
export class ResultsRepo {
  private readonly findStmt;
  private readonly sourceForStmt;
  readonly complete: (r: NewResult) => boolean;
  readonly reuse: (fromItemId: number, toItemId: number, batchId: number, sha256: string) => boolean;
  /**
   * Replaces a finished item's result with a new one (re-analysis): the old rows go (tags,
   * categories, colours, names and caption index follow by cascade and triggers) and the new
   * ones land with `done`, in one transaction. False when the item is not finished.
   */
  readonly replace: (r: NewResult) => boolean;

  constructor(db: Db) {
    const doneStmt = db.prepare<[string, number, number, number | null, number]>(
      `UPDATE items SET status = 'done', sha256 = ?, finished_at = ?, analyze_ms = ?, reused_from = ?, error_code = NULL, error_message = NULL
       WHERE id = ? AND status IN ('fetching', 'analyzing')`,
    );
    const insertResult = db.prepare(`INSERT INTO results (item_id, batch_id, ${RESULT_COLS}) VALUES (${Array(19).fill('?').join(', ')})`);
    const insertTag = db.prepare<[number, number, string, number]>(
      'INSERT INTO result_tags (item_id, batch_id, name, confidence) VALUES (?, ?, ?, ?)',
    );
    const insertCat = db.prepare<[number, number, string, number]>(
      'INSERT INTO result_categories (item_id, batch_id, name, score) VALUES (?, ?, ?, ?)',
    );
    const insertColor = db.prepare<[number, number, string]>('INSERT INTO result_colors (item_id, batch_id, name) VALUES (?, ?, ?)');
    const insertName = db.prepare<[number, number, string, string, number]>(
      'INSERT INTO result_names (item_id, batch_id, kind, name, confidence) VALUES (?, ?, ?, ?, ?)',
    );
    const insertThumb = db.prepare<[number, string, Uint8Array]>(
      'INSERT OR REPLACE INTO thumbnails (item_id, mime, bytes) VALUES (?, ?, ?)',
    );
    this.findStmt = db.prepare<[string, string], { item_id: number }>(
      'SELECT item_id FROM results WHERE sha256 = ? AND op_key = ? LIMIT 1',
    );
    this.sourceForStmt = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM results WHERE item_id = ?');

    // IMMEDIATE: the write lock is taken (waiting up to the busy timeout) before the first read,
    // so a write from another process in between cannot end this one with SQLITE_BUSY_SNAPSHOT.
    const completeTx = db.transaction((r: NewResult): boolean => {
      if (doneStmt.run(r.sha256, Date.now(), r.analyzeMs, null, r.itemId).changes === 0) return false;
      const c = r.columns;
      insertResult.run(
        r.itemId,
        r.batchId,
        r.sha256,
        r.opKey,
        JSON.stringify(r.response),
        c.width,
        c.height,
        c.format,
        c.caption,
        c.captionConfidence,
        c.faceCount,
        c.adultScore,
        c.racyScore,
        c.isBW === null ? null : Number(c.isBW),
        c.clipArtType,
        c.lineDrawingType,
        c.accentColor,
        c.dominantForeground,
        c.dominantBackground,
      );
      for (const t of c.tags) insertTag.run(r.itemId, r.batchId, t.name, t.confidence);
      for (const k of c.categories) insertCat.run(r.itemId, r.batchId, k.name, k.score);
      for (const name of c.colors) insertColor.run(r.itemId, r.batchId, name);
      for (const n of c.names) insertName.run(r.itemId, r.batchId, n.kind, n.name, n.confidence);
      if (r.thumbnail) insertThumb.run(r.itemId, r.thumbnail.mime, r.thumbnail.bytes);
      return true;
    });
    this.complete = (r) => completeTx.immediate(r);

    // Copies every row of the source result to the new item: queries stay per-item and simple.
    const copy = (table: string, cols: string): ReturnType<Db['prepare']> =>
      db.prepare(`INSERT INTO ${table} (item_id, batch_id, ${cols}) SELECT ?, ?, ${cols} FROM ${table} WHERE item_id = ?`);
    const copyResult = copy('results', RESULT_COLS);
    const copyTags = copy('result_tags', 'name, confidence');
    const copyCats = copy('result_categories', 'name, score');
    const copyColors = copy('result_colors', 'name');
    const copyNames = copy('result_names', 'kind, name, confidence');
    const copyThumb = db.prepare<[number, number]>(
      'INSERT OR REPLACE INTO thumbnails (item_id, mime, bytes) SELECT ?, mime, bytes FROM thumbnails WHERE item_id = ?',
    );
    const rootStmt = db.prepare<[number], { root: number }>('SELECT coalesce(reused_from, id) AS root FROM items WHERE id = ?');
    const reopenStmt = db.prepare<[number]>(`UPDATE items SET status = 'analyzing' WHERE id = ? AND status IN ('done', 'failed')`);
    const dropResultStmt = db.prepare<[number]>('DELETE FROM results WHERE item_id = ?');
    const replaceTx = db.transaction((r: NewResult): boolean => {
      if (reopenStmt.run(r.itemId).changes === 0) return false;
      dropResultStmt.run(r.itemId);
      return this.complete(r);
    });
    this.replace = (r) => replaceTx.immediate(r);

    const reuseTx = db.transaction((fromItemId: number, toItemId: number, batchId: number, sha256: string): boolean => {
      if (this.sourceForStmt.get(fromItemId)?.n !== 1) return false;
      // Point at the item that was actually analysed, whichever copy the lookup found.
      const root = rootStmt.get(fromItemId)?.root ?? fromItemId;
      if (doneStmt.run(sha256, Date.now(), 0, root, toItemId).changes === 0) return false;
      for (const stmt of [copyResult, copyTags, copyCats, copyColors, copyNames]) stmt.run(toItemId, batchId, fromItemId);
      copyThumb.run(toItemId, fromItemId);
      return true;
    });
    this.reuse = (from, to, batchId, sha256) => reuseTx.immediate(from, to, batchId, sha256);
  }

  /** An item whose stored result can stand in for these bytes under this operation. */
  findReusable(sha256: string, opKey: string): number | undefined {
    return this.findStmt.get(sha256, opKey)?.item_id;
  }
}
