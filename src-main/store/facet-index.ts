import type { Statement } from 'better-sqlite3';
import type { FacetCount } from '../shared/batch';
import type { Db } from './db';

/**
 * In-memory facet index: per batch, every result's tags (with confidence), categories, colours
 * and flags as flat typed arrays, so the facet counts of any filter are one SQL query for the
 * matching item ids plus a counting pass in JavaScript, instead of joins over millions of child
 * rows. Loaded lazily per batch on its first facet request; kept in step with `result_changes`
 * (migration 6: a trigger-stamped sequence number per item's latest result insert or delete):
 * each request first applies the changes since the last one it saw, in the same read
 * transaction as the caller's match query, so the counts are exactly the SQL ones.
 *
 * Layout: an item's slot is `item id − base`. Per slot one byte of flags (has a result, faces,
 * B/W, clip art ≥ 2, line drawing). Tags, categories and colours are (slot, name id[, confidence])
 * triples in parallel typed arrays, appended as results arrive; a replaced or deleted result's
 * triples are marked dead and compacted away once a quarter of the arrays is dead.
 */

const PRESENT = 1;
const FACES = 2;
const BW = 4;
const CLIP_ART = 8;
const LINE_DRAWING = 16;

/** Indexes kept per connection (least recently used beyond this are dropped). */
const MAX_BATCHES = 2;
/**
 * Typed-array bytes the kept indexes may hold together; beyond it older batches are dropped,
 * the one in use never (≈ 22 MB per 100 000 results with 11 tags each, so two batches of up to
 * ≈ 300 000 results stay; a 1 000 000-result batch is kept alone).
 */
const MAX_BYTES = 128 * 1024 * 1024;

/** Name ↔ dense id. */
class Dictionary {
  readonly names: string[] = [];
  private readonly ids = new Map<string, number>();
  private lastName: string | undefined;
  private lastId = -1;

  id(name: string): number {
    // Full loads read rows grouped by name: one comparison instead of a map lookup per row.
    if (name === this.lastName) return this.lastId;
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.ids.set(name, id);
    }
    this.lastName = name;
    this.lastId = id;
    return id;
  }
}

/** (slot, name id[, confidence]) triples; a dead triple has slot −1. */
class Pairs {
  slot = new Int32Array(1024);
  name = new Int32Array(1024);
  conf: Float64Array | null;
  length = 0;
  dead = 0;

  constructor(withConfidence: boolean) {
    this.conf = withConfidence ? new Float64Array(1024) : null;
  }

  push(slot: number, name: number, conf = 0): void {
    if (this.length === this.slot.length) this.resize(this.slot.length * 2);
    this.slot[this.length] = slot;
    this.name[this.length] = name;
    if (this.conf) this.conf[this.length] = conf;
    this.length++;
  }

  /** Appends one name's items (ids minus `base`), with their confidences when kept. */
  pushAll(items: readonly number[], base: number, name: number, confidences?: readonly number[]): void {
    const n = items.length;
    if (this.length + n > this.slot.length) this.resize(Math.max(this.slot.length * 2, this.length + n));
    const { slot, conf } = this;
    const at = this.length;
    for (let k = 0; k < n; k++) slot[at + k] = items[k]! - base;
    this.name.fill(name, at, at + n);
    if (conf && confidences) for (let k = 0; k < n; k++) conf[at + k] = confidences[k]!;
    this.length += n;
  }

  /** Marks dead every triple whose slot is set in `mask`. */
  kill(mask: Uint8Array): void {
    const { slot, length } = this;
    for (let p = 0; p < length; p++) {
      const s = slot[p]!;
      if (s >= 0 && mask[s] === 1) {
        slot[p] = -1;
        this.dead++;
      }
    }
    if (this.dead > 1024 && this.dead * 4 > this.length) this.compact();
  }

  /** Adds `delta` to every live slot (the base item id moved down). */
  shift(delta: number): void {
    for (let p = 0; p < this.length; p++) if (this.slot[p]! >= 0) this.slot[p]! += delta;
  }

  /** counts[name] += 1 for each live triple whose slot is matched (and confidence ≥ threshold). */
  count(match: Uint8Array, counts: Int32Array, threshold: number): void {
    const { slot, name, conf, length } = this;
    if (conf) {
      for (let p = 0; p < length; p++) {
        const s = slot[p]!;
        if (s >= 0 && match[s] === 1 && conf[p]! >= threshold) counts[name[p]!]!++;
      }
    } else {
      for (let p = 0; p < length; p++) {
        const s = slot[p]!;
        if (s >= 0 && match[s] === 1) counts[name[p]!]!++;
      }
    }
  }

  /** Drops spare capacity beyond an eighth (after a full load). */
  trim(): void {
    const capacity = Math.max(1024, this.length + (this.length >> 3));
    if (capacity < this.slot.length) this.resize(capacity);
  }

  bytes(): number {
    return this.slot.byteLength + this.name.byteLength + (this.conf?.byteLength ?? 0);
  }

  private compact(): void {
    let w = 0;
    for (let p = 0; p < this.length; p++) {
      if (this.slot[p]! < 0) continue;
      this.slot[w] = this.slot[p]!;
      this.name[w] = this.name[p]!;
      if (this.conf) this.conf[w] = this.conf[p]!;
      w++;
    }
    this.length = w;
    this.dead = 0;
    if (this.slot.length > 2048 && w * 4 < this.slot.length) this.resize(Math.max(1024, w * 2));
  }

  private resize(capacity: number): void {
    const grow = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(capacity);
      b.set(a.subarray(0, Math.min(this.length, capacity)));
      return b;
    };
    this.slot = grow(this.slot, (n) => new Int32Array(n));
    this.name = grow(this.name, (n) => new Int32Array(n));
    if (this.conf) this.conf = grow(this.conf, (n) => new Float64Array(n));
  }
}

/** One batch's index. */
class BatchIndex {
  base = 0;
  flags = new Uint8Array(0);
  /** Scratch: matched slots of the request being counted (all zero between requests). */
  match = new Uint8Array(0);
  readonly tags = new Pairs(true);
  readonly categories = new Pairs(false);
  readonly colors = new Pairs(false);
  readonly tagNames = new Dictionary();
  readonly categoryNames = new Dictionary();
  readonly colorNames = new Dictionary();

  constructor(
    readonly batchId: number,
    readonly createdAt: string,
    /** The last `result_changes.seq` of this batch applied. */
    public seq: number,
  ) {}

  /** Makes room for slots of item ids lo..hi. */
  ensure(lo: number, hi: number): void {
    if (this.flags.length === 0) this.base = lo;
    const base = Math.min(this.base, lo);
    const end = Math.max(this.base + this.flags.length, hi + 1);
    if (base === this.base && end === this.base + this.flags.length) return;
    // Grow with headroom at the top: a running batch's results arrive for ever higher ids.
    const capacity = end - base + (end > this.base + this.flags.length ? Math.ceil((end - base) / 8) : 0);
    const flags = new Uint8Array(capacity);
    flags.set(this.flags, this.base - base);
    if (base !== this.base) for (const p of [this.tags, this.categories, this.colors]) p.shift(this.base - base);
    this.flags = flags;
    this.match = new Uint8Array(capacity);
    this.base = base;
  }

  slotOf(itemId: number): number {
    const s = itemId - this.base;
    return s >= 0 && s < this.flags.length ? s : -1;
  }

  bytes(): number {
    return this.flags.byteLength + this.match.byteLength + this.tags.bytes() + this.categories.bytes() + this.colors.bytes();
  }
}

/** Facet counts from the index for one set of matching items. */
export interface IndexedFacets {
  withFaces: number;
  bw: number;
  clipArt: number;
  lineDrawing: number;
  tags: FacetCount[];
  categories: FacetCount[];
  colors: FacetCount[];
}

const flagBits = (faceCount: number | null, isBw: number | null, clipArt: number | null, lineDrawing: number | null): number =>
  PRESENT |
  (faceCount !== null && faceCount > 0 ? FACES : 0) |
  (isBw === 1 ? BW : 0) |
  (clipArt !== null && clipArt >= 2 ? CLIP_ART : 0) |
  (lineDrawing === 1 ? LINE_DRAWING : 0);

/** Above this many changed items since the last request, reloading the batch is cheaper. */
const INCREMENTAL_LIMIT = 5000;

/** The facet indexes of one database connection. Use `facetIndex(db)`. */
export class FacetIndex {
  private readonly batches = new Map<number, BatchIndex>();
  private readonly stmts;
  /** Full loads and incremental refreshes done (for tests and benches). */
  readonly stats = { loads: 0, refreshes: 0 };

  constructor(
    private readonly db: Db,
    private readonly limits: { maxBytes: number } = { maxBytes: MAX_BYTES },
  ) {
    const changes = 'FROM result_changes c WHERE c.batch_id = ? AND c.seq > ?';
    const ids = (from: string): Statement => db.prepare(`SELECT item_id FROM ${from}`).pluck();
    // The distinct names of a batch by skip-scan of the (batch_id, name, …) index: one seek a name.
    const names = (table: string): Statement =>
      db
        .prepare(
          `WITH RECURSIVE n(name) AS (
             SELECT (SELECT min(name) FROM ${table} WHERE batch_id = ?)
             UNION ALL SELECT (SELECT min(name) FROM ${table} WHERE batch_id = ? AND name > n.name) FROM n WHERE n.name IS NOT NULL
           ) SELECT name FROM n WHERE name IS NOT NULL`,
        )
        .pluck();
    this.stmts = {
      batch: db.prepare<[number], { created_at: string }>('SELECT created_at FROM batches WHERE id = ?'),
      maxSeq: db.prepare<[number], { seq: number | null }>('SELECT max(seq) AS seq FROM result_changes WHERE batch_id = ?'),
      changeCount: db.prepare<[number, number, number], { n: number }>(`SELECT count(*) AS n FROM (SELECT 1 ${changes} LIMIT ?)`),
      // Full load: covering index scans only (never the result rows with their large JSON), one
      // plucked column per query (the cheapest way through better-sqlite3: ~0.1 µs a value).
      present: ids('results INDEXED BY results_batch_faces WHERE batch_id = ?'),
      faces: ids('results INDEXED BY results_batch_faces WHERE batch_id = ? AND face_count > 0'),
      bw: ids('results INDEXED BY results_batch_bw WHERE batch_id = ? AND is_bw = 1'),
      clipArt: ids('results INDEXED BY results_batch_type WHERE batch_id = ? AND clip_art_type >= 2'),
      lineDrawing: ids('results INDEXED BY results_batch_type WHERE batch_id = ? AND line_drawing_type = 1'),
      tagNames: names('result_tags'),
      categoryNames: names('result_categories'),
      colorNames: names('result_colors'),
      // Per name, in index order (confidence, item id): both columns line up row for row.
      tagIds: db.prepare('SELECT item_id FROM result_tags WHERE batch_id = ? AND name = ? ORDER BY confidence, item_id').pluck(),
      tagConfidences: db.prepare('SELECT confidence FROM result_tags WHERE batch_id = ? AND name = ? ORDER BY confidence, item_id').pluck(),
      categoryIds: ids('result_categories WHERE batch_id = ? AND name = ?'),
      colorIds: ids('result_colors WHERE batch_id = ? AND name = ?'),
      // Incremental: the items changed since a sequence number, with their current rows.
      changed: db
        .prepare(
          `SELECT c.item_id, r.item_id IS NOT NULL AS present, r.face_count, r.is_bw, r.clip_art_type, r.line_drawing_type
           FROM result_changes c LEFT JOIN results r ON r.item_id = c.item_id WHERE c.batch_id = ? AND c.seq > ?`,
        )
        .raw(),
      changedTags: db
        .prepare(
          `SELECT t.item_id, t.name, t.confidence FROM result_changes c CROSS JOIN result_tags t ON t.item_id = c.item_id
           WHERE c.batch_id = ? AND c.seq > ?`,
        )
        .raw(),
      changedCategories: db
        .prepare(
          `SELECT t.item_id, t.name FROM result_changes c CROSS JOIN result_categories t ON t.item_id = c.item_id
           WHERE c.batch_id = ? AND c.seq > ?`,
        )
        .raw(),
      changedColors: db
        .prepare(
          `SELECT t.item_id, t.name FROM result_changes c CROSS JOIN result_colors t ON t.item_id = c.item_id
           WHERE c.batch_id = ? AND c.seq > ?`,
        )
        .raw(),
    };
  }

  /**
   * Counts flags, tags (confidence ≥ threshold), categories and colours over the given items
   * of a batch, top `limit` names per list by count, then name (SQLite's binary order). Call it
   * inside the read transaction that produced `itemIds`, so the index is brought up to that
   * snapshot. Items without a result count nowhere.
   */
  count(batchId: number, itemIds: ArrayLike<number>, tagThreshold: number, limit: number): IndexedFacets {
    const ix = this.current(batchId);
    const empty: IndexedFacets = { withFaces: 0, bw: 0, clipArt: 0, lineDrawing: 0, tags: [], categories: [], colors: [] };
    if (!ix) return empty;
    const { match, flags } = ix;
    let withFaces = 0;
    let bw = 0;
    let clipArt = 0;
    let lineDrawing = 0;
    let matched = 0;
    for (let k = 0; k < itemIds.length; k++) {
      const s = ix.slotOf(itemIds[k]!);
      if (s < 0) continue;
      const f = flags[s]!;
      if ((f & PRESENT) === 0) continue;
      match[s] = 1;
      matched++;
      if (f & FACES) withFaces++;
      if (f & BW) bw++;
      if (f & CLIP_ART) clipArt++;
      if (f & LINE_DRAWING) lineDrawing++;
    }
    if (matched === 0) return empty;
    try {
      const top = (pairs: Pairs, dict: Dictionary, threshold: number): FacetCount[] => {
        const counts = new Int32Array(dict.names.length);
        pairs.count(match, counts, threshold);
        return topNames(counts, dict.names, limit);
      };
      return {
        withFaces,
        bw,
        clipArt,
        lineDrawing,
        tags: top(ix.tags, ix.tagNames, tagThreshold),
        categories: top(ix.categories, ix.categoryNames, 0),
        colors: top(ix.colors, ix.colorNames, 0),
      };
    } finally {
      if (matched * 16 > match.length) match.fill(0);
      else
        for (let k = 0; k < itemIds.length; k++) {
          const s = ix.slotOf(itemIds[k]!);
          if (s >= 0) match[s] = 0;
        }
    }
  }

  /** Whether the batch's index is in memory (it may still have changes to apply). */
  loaded(batchId: number): boolean {
    return this.batches.has(batchId);
  }

  /** Bytes held by the typed arrays of every loaded batch. */
  bytes(): number {
    let n = 0;
    for (const ix of this.batches.values()) n += ix.bytes();
    return n;
  }

  /** The batch's index brought up to the current snapshot (undefined when the batch is gone). */
  private current(batchId: number): BatchIndex | undefined {
    const head = this.stmts.batch.get(batchId);
    let ix = this.batches.get(batchId);
    this.batches.delete(batchId);
    if (!head) return undefined;
    const seq = this.stmts.maxSeq.get(batchId)?.seq ?? 0;
    // A re-used batch id (another created_at) or vanished change rows: start over.
    if (!ix || ix.createdAt !== head.created_at || seq < ix.seq) ix = this.load(batchId, head.created_at, seq);
    else if (seq > ix.seq) {
      const pending = this.stmts.changeCount.get(batchId, ix.seq, INCREMENTAL_LIMIT + 1)!.n;
      if (pending > INCREMENTAL_LIMIT) ix = this.load(batchId, head.created_at, seq);
      else this.apply(ix, seq);
    }
    this.batches.set(batchId, ix);
    // Map order is use order (the current batch was re-inserted last): drop from the front.
    while (this.batches.size > MAX_BATCHES || (this.batches.size > 1 && this.bytes() > this.limits.maxBytes))
      this.batches.delete(this.batches.keys().next().value!);
    return ix;
  }

  private load(batchId: number, createdAt: string, seq: number): BatchIndex {
    this.stats.loads++;
    const ix = new BatchIndex(batchId, createdAt, seq);
    const st = this.stmts;
    const present = st.present.all(batchId) as number[];
    if (present.length === 0) return ix;
    let lo = Infinity;
    let hi = -Infinity;
    for (const id of present) {
      if (id < lo) lo = id;
      if (id > hi) hi = id;
    }
    ix.ensure(lo, hi);
    const { flags, base } = ix;
    const mark = (ids: number[], bit: number): void => {
      for (const id of ids) flags[id - base]! |= bit;
    };
    mark(present, PRESENT);
    mark(st.faces.all(batchId) as number[], FACES);
    mark(st.bw.all(batchId) as number[], BW);
    mark(st.clipArt.all(batchId) as number[], CLIP_ART);
    mark(st.lineDrawing.all(batchId) as number[], LINE_DRAWING);
    for (const name of st.tagNames.all(batchId, batchId) as string[]) {
      const confidences = st.tagConfidences.all(batchId, name) as number[];
      ix.tags.pushAll(st.tagIds.all(batchId, name) as number[], base, ix.tagNames.id(name), confidences);
    }
    for (const [pairs, dict, names, ids] of [
      [ix.categories, ix.categoryNames, st.categoryNames, st.categoryIds],
      [ix.colors, ix.colorNames, st.colorNames, st.colorIds],
    ] as const) {
      for (const name of names.all(batchId, batchId) as string[]) {
        pairs.pushAll(ids.all(batchId, name) as number[], base, dict.id(name));
      }
    }
    for (const pairs of [ix.tags, ix.categories, ix.colors]) pairs.trim();
    return ix;
  }

  /** Applies the results inserted, replaced or deleted since `ix.seq`. */
  private apply(ix: BatchIndex, seq: number): void {
    this.stats.refreshes++;
    const changed = this.stmts.changed.all(ix.batchId, ix.seq) as Array<[number, number, ...Parameters<typeof flagBits>]>;
    let lo = Infinity;
    let hi = -Infinity;
    for (const [id] of changed) {
      if (id < lo) lo = id;
      if (id > hi) hi = id;
    }
    if (changed.length) ix.ensure(lo, hi);
    // Drop what the index holds for items that had a result: their rows are read again below.
    let stale = false;
    for (const [id] of changed) {
      const s = id - ix.base;
      if (ix.flags[s]! & PRESENT) {
        ix.match[s] = 1;
        stale = true;
      }
    }
    if (stale) {
      for (const p of [ix.tags, ix.categories, ix.colors]) p.kill(ix.match);
      ix.match.fill(0);
    }
    for (const [id, present, ...cols] of changed) ix.flags[id - ix.base] = present ? flagBits(...cols) : 0;
    for (const [id, name, conf] of this.stmts.changedTags.iterate(ix.batchId, ix.seq) as IterableIterator<[number, string, number]>) {
      ix.tags.push(id - ix.base, ix.tagNames.id(name), conf);
    }
    for (const [id, name] of this.stmts.changedCategories.iterate(ix.batchId, ix.seq) as IterableIterator<[number, string]>) {
      ix.categories.push(id - ix.base, ix.categoryNames.id(name));
    }
    for (const [id, name] of this.stmts.changedColors.iterate(ix.batchId, ix.seq) as IterableIterator<[number, string]>) {
      ix.colors.push(id - ix.base, ix.colorNames.id(name));
    }
    ix.seq = seq;
  }
}

/** The top `limit` names by count (> 0), ties by name in SQLite's binary (code point) order. */
function topNames(counts: Int32Array, names: readonly string[], limit: number): FacetCount[] {
  const hits: number[] = [];
  for (let id = 0; id < counts.length; id++) if (counts[id]! > 0) hits.push(id);
  hits.sort((a, b) => counts[b]! - counts[a]! || byCodePoint(names[a]!, names[b]!));
  return hits.slice(0, limit).map((id) => ({ name: names[id]!, count: counts[id]! }));
}

/** Code point order (UTF-8 byte order, as SQLite's BINARY collation), not UTF-16 unit order. */
export function byCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let k = 0; k < n; k++) {
    const x = a.charCodeAt(k);
    const y = b.charCodeAt(k);
    if (x !== y) return unitRank(x) - unitRank(y);
  }
  return a.length - b.length;
}

// Surrogates (code points ≥ U+10000) sort after U+E000–U+FFFF in code point order.
const unitRank = (u: number): number => (u >= 0xd800 && u <= 0xdfff ? u + 0x2000 : u >= 0xe000 ? u - 0x800 : u);

const registry = new WeakMap<Db, FacetIndex>();

/** The facet index of a connection, shared by every query object on it. */
export function facetIndex(db: Db): FacetIndex {
  let ix = registry.get(db);
  if (!ix) registry.set(db, (ix = new FacetIndex(db)));
  return ix;
}
