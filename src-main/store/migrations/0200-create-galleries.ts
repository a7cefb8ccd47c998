import type { Migration } from '../migrate';

// Why: people and places enrolled by the user (issue 8) are shared by the CLI, the API server and
// the desktop app, so they live in the one database: entries, reference descriptors with the
// model that made them (a model change must be detected), and a revision bumped on every write
// so long-running processes can tell when to reload their in-memory index.
export const m0200: Migration = {
  version: 200,
  name: 'create-galleries',
  up(db) {
    db.exec(`
      CREATE TABLE gallery_entries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL CHECK (kind IN ('person', 'place')),
        name TEXT NOT NULL CHECK (length(trim(name)) > 0),
        mid TEXT,
        latitude REAL CHECK (latitude IS NULL OR latitude BETWEEN -90 AND 90),
        longitude REAL CHECK (longitude IS NULL OR longitude BETWEEN -180 AND 180),
        created_at TEXT NOT NULL,
        CHECK ((latitude IS NULL) = (longitude IS NULL)),
        CHECK (kind = 'place' OR (mid IS NULL AND latitude IS NULL))
      ) STRICT;
      CREATE UNIQUE INDEX gallery_entries_name ON gallery_entries(kind, name COLLATE NOCASE);

      CREATE TABLE gallery_references (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        entry_id INTEGER NOT NULL REFERENCES gallery_entries(id) ON DELETE CASCADE,
        source TEXT NOT NULL,
        model_id TEXT NOT NULL,
        model_sha256 TEXT NOT NULL,
        method TEXT NOT NULL,
        dim INTEGER NOT NULL CHECK (dim > 0),
        descriptor BLOB NOT NULL CHECK (length(descriptor) = dim * 4),
        face_left INTEGER,
        face_top INTEGER,
        face_width INTEGER,
        face_height INTEGER,
        thumbnail BLOB,
        thumbnail_type TEXT,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX gallery_references_entry ON gallery_references(entry_id);

      CREATE TABLE gallery_meta (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        revision INTEGER NOT NULL
      ) STRICT;
      INSERT INTO gallery_meta (id, revision) VALUES (1, 0);
    `);
  },
};
