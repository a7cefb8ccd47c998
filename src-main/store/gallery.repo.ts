import type { Db } from './db';

/** Gallery kinds as stored. */
export type GalleryKindRow = 'person' | 'place';

/** One enrolled person or place with its number of references. */
export interface GalleryEntryRecord {
  id: number;
  kind: GalleryKindRow;
  name: string;
  mid: string | null;
  latitude: number | null;
  longitude: number | null;
  createdAt: string;
  references: number;
}

/** A reference descriptor as stored; `descriptor` is little-endian float32. */
export interface GalleryReferenceRecord {
  id: number;
  entryId: number;
  source: string;
  modelId: string;
  modelSha256: string;
  method: string;
  dim: number;
  descriptor: Float32Array;
  face: { left: number; top: number; width: number; height: number } | null;
  thumbnail: Uint8Array | null;
  thumbnailType: string | null;
  createdAt: string;
}

/** An entry to create (or to add references to, matched by kind and name). */
export type NewGalleryEntry = Pick<GalleryEntryRecord, 'kind' | 'name' | 'mid' | 'latitude' | 'longitude'>;
/** A reference to store; `entryId` is set by `enrol`. */
export type NewGalleryReference = Omit<GalleryReferenceRecord, 'id' | 'createdAt'>;

interface EntryRow {
  id: number;
  kind: GalleryKindRow;
  name: string;
  mid: string | null;
  latitude: number | null;
  longitude: number | null;
  created_at: string;
  refs: number;
}

interface RefRow {
  id: number;
  entry_id: number;
  source: string;
  model_id: string;
  model_sha256: string;
  method: string;
  dim: number;
  descriptor: Buffer;
  face_left: number | null;
  face_top: number | null;
  face_width: number | null;
  face_height: number | null;
  thumbnail: Buffer | null;
  thumbnail_type: string | null;
  created_at: string;
}

const ENTRY_SELECT = 'SELECT e.*, (SELECT count(*) FROM gallery_references r WHERE r.entry_id = e.id) AS refs FROM gallery_entries e';

const toEntry = (r: EntryRow): GalleryEntryRecord => ({
  id: r.id,
  kind: r.kind,
  name: r.name,
  mid: r.mid,
  latitude: r.latitude,
  longitude: r.longitude,
  createdAt: r.created_at,
  references: r.refs,
});

// Copy out of the Buffer: its memory belongs to better-sqlite3's row and may be unaligned.
function toFloats(b: Buffer): Float32Array {
  const out = new Float32Array(b.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = b.readFloatLE(i * 4);
  return out;
}

function toBlob(v: Float32Array): Buffer {
  const b = Buffer.alloc(v.length * 4);
  for (let i = 0; i < v.length; i++) b.writeFloatLE(v[i]!, i * 4);
  return b;
}

const toReference = (r: RefRow): GalleryReferenceRecord => ({
  id: r.id,
  entryId: r.entry_id,
  source: r.source,
  modelId: r.model_id,
  modelSha256: r.model_sha256,
  method: r.method,
  dim: r.dim,
  descriptor: toFloats(r.descriptor),
  face: r.face_left === null ? null : { left: r.face_left, top: r.face_top!, width: r.face_width!, height: r.face_height! },
  thumbnail: r.thumbnail ? new Uint8Array(r.thumbnail) : null,
  thumbnailType: r.thumbnail_type,
  createdAt: r.created_at,
});

/**
 * People and places (tables `gallery_entries`, `gallery_references`). Every write bumps
 * `gallery_meta.revision` in the same transaction, so readers can cache by revision.
 */
export class GalleryRepo {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      revision: db.prepare<[], number>('SELECT revision FROM gallery_meta WHERE id = 1').pluck(),
      bump: db.prepare('UPDATE gallery_meta SET revision = revision + 1 WHERE id = 1'),
      byId: db.prepare<[number], EntryRow>(`${ENTRY_SELECT} WHERE e.id = ?`),
      byName: db.prepare<[GalleryKindRow, string], EntryRow>(`${ENTRY_SELECT} WHERE e.kind = ? AND e.name = ? COLLATE NOCASE`),
      list: db.prepare<[], EntryRow>(`${ENTRY_SELECT} ORDER BY e.kind, e.name COLLATE NOCASE, e.id`),
      insertEntry: db.prepare<[GalleryKindRow, string, string | null, number | null, number | null, string]>(
        'INSERT INTO gallery_entries (kind, name, mid, latitude, longitude, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      updatePlace: db.prepare<[string | null, number | null, number | null, number]>(
        'UPDATE gallery_entries SET mid = ?, latitude = ?, longitude = ? WHERE id = ?',
      ),
      deleteEntry: db.prepare<[number]>('DELETE FROM gallery_entries WHERE id = ?'),
      insertRef: db.prepare(
        `INSERT INTO gallery_references (entry_id, source, model_id, model_sha256, method, dim, descriptor, face_left, face_top, face_width, face_height, thumbnail, thumbnail_type, created_at)
         VALUES (@entryId, @source, @modelId, @modelSha256, @method, @dim, @descriptor, @faceLeft, @faceTop, @faceWidth, @faceHeight, @thumbnail, @thumbnailType, @createdAt)`,
      ),
      refsOfKind: db.prepare<[GalleryKindRow], RefRow>(
        'SELECT r.* FROM gallery_references r JOIN gallery_entries e ON e.id = r.entry_id WHERE e.kind = ? ORDER BY r.id',
      ),
      refsOfEntry: db.prepare<[number], RefRow>('SELECT * FROM gallery_references WHERE entry_id = ? ORDER BY id'),
      thumbnail: db.prepare<[number], Pick<RefRow, 'thumbnail' | 'thumbnail_type'>>(
        'SELECT thumbnail, thumbnail_type FROM gallery_references WHERE id = ?',
      ),
    };
  }

  /** Increases on every change of either gallery. */
  revision(): number {
    return this.stmts.revision.get() ?? 0;
  }

  get(id: number): GalleryEntryRecord | undefined {
    const r = this.stmts.byId.get(id);
    return r ? toEntry(r) : undefined;
  }

  /** Case-insensitive lookup by kind and name. */
  findByName(kind: GalleryKindRow, name: string): GalleryEntryRecord | undefined {
    const r = this.stmts.byName.get(kind, name);
    return r ? toEntry(r) : undefined;
  }

  list(): GalleryEntryRecord[] {
    return this.stmts.list.all().map(toEntry);
  }

  /**
   * Adds references to the entry named `entry.name` of that kind, creating it if needed (a
   * place's mid and location are replaced by the new values). All or nothing; returns the entry.
   */
  enrol(entry: NewGalleryEntry, refs: readonly NewGalleryReference[], now = new Date().toISOString()): GalleryEntryRecord {
    const run = this.db.transaction(() => {
      const existing = this.findByName(entry.kind, entry.name);
      let id: number;
      if (existing) {
        id = existing.id;
        if (entry.kind === 'place') this.stmts.updatePlace.run(entry.mid, entry.latitude, entry.longitude, id);
      } else {
        id = Number(
          this.stmts.insertEntry.run(entry.kind, entry.name.trim(), entry.mid, entry.latitude, entry.longitude, now).lastInsertRowid,
        );
      }
      for (const r of refs) {
        this.stmts.insertRef.run({
          entryId: id,
          source: r.source,
          modelId: r.modelId,
          modelSha256: r.modelSha256,
          method: r.method,
          dim: r.dim,
          descriptor: toBlob(r.descriptor),
          faceLeft: r.face?.left ?? null,
          faceTop: r.face?.top ?? null,
          faceWidth: r.face?.width ?? null,
          faceHeight: r.face?.height ?? null,
          thumbnail: r.thumbnail ? Buffer.from(r.thumbnail) : null,
          thumbnailType: r.thumbnailType,
          createdAt: now,
        });
      }
      this.stmts.bump.run();
      return this.get(id)!;
    });
    return run.immediate();
  }

  /** Deletes an entry and its references; false if there was none. */
  remove(id: number): boolean {
    return this.db
      .transaction(() => {
        const changed = this.stmts.deleteEntry.run(id).changes > 0;
        if (changed) this.stmts.bump.run();
        return changed;
      })
      .immediate();
  }

  /** Every reference of one kind, oldest first. */
  referencesOfKind(kind: GalleryKindRow): GalleryReferenceRecord[] {
    return this.stmts.refsOfKind.all(kind).map(toReference);
  }

  referencesOf(entryId: number): GalleryReferenceRecord[] {
    return this.stmts.refsOfEntry.all(entryId).map(toReference);
  }

  /** A reference's thumbnail bytes and MIME type. */
  thumbnail(referenceId: number): { data: Uint8Array; type: string } | undefined {
    const r = this.stmts.thumbnail.get(referenceId);
    return r?.thumbnail ? { data: new Uint8Array(r.thumbnail), type: r.thumbnail_type ?? 'application/octet-stream' } : undefined;
  }

  /** Runs `fn` in one write transaction (imports). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }
}
