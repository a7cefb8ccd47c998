import type { Migration } from '../migrate';

// Why: analysis results (full spec JSON) with the fields the browser filters on pulled out into
// indexed columns and child tables (tags, categories, colours, celebrity/landmark names), plus
// small thumbnails for the grid.
export const m0002: Migration = {
  version: 2,
  name: 'create-results',
  up(db) {
    db.exec(`
      CREATE TABLE results (
        item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
        batch_id INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        op_key TEXT NOT NULL,
        response TEXT NOT NULL,
        width INTEGER,
        height INTEGER,
        format TEXT,
        caption TEXT,
        caption_confidence REAL,
        face_count INTEGER,
        adult_score REAL,
        racy_score REAL,
        is_bw INTEGER,
        clip_art_type INTEGER,
        line_drawing_type INTEGER,
        accent_color TEXT,
        dominant_foreground TEXT,
        dominant_background TEXT
      ) STRICT;
      CREATE INDEX results_dedup ON results(sha256, op_key);
      CREATE INDEX results_batch_faces ON results(batch_id, face_count);
      CREATE INDEX results_batch_adult ON results(batch_id, adult_score);
      CREATE INDEX results_batch_racy ON results(batch_id, racy_score);
      CREATE INDEX results_batch_bw ON results(batch_id, is_bw);
      CREATE INDEX results_batch_type ON results(batch_id, clip_art_type, line_drawing_type);

      CREATE TABLE result_tags (
        item_id INTEGER NOT NULL REFERENCES results(item_id) ON DELETE CASCADE,
        batch_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        confidence REAL NOT NULL,
        PRIMARY KEY (item_id, name)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX result_tags_batch_name ON result_tags(batch_id, name, confidence, item_id);

      CREATE TABLE result_categories (
        item_id INTEGER NOT NULL REFERENCES results(item_id) ON DELETE CASCADE,
        batch_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        score REAL NOT NULL,
        PRIMARY KEY (item_id, name)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX result_categories_batch_name ON result_categories(batch_id, name, item_id);

      CREATE TABLE result_colors (
        item_id INTEGER NOT NULL REFERENCES results(item_id) ON DELETE CASCADE,
        batch_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (item_id, name)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX result_colors_batch_name ON result_colors(batch_id, name, item_id);

      -- Celebrities and landmarks found in category details, for the name filters.
      CREATE TABLE result_names (
        item_id INTEGER NOT NULL REFERENCES results(item_id) ON DELETE CASCADE,
        batch_id INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('celebrity', 'landmark')),
        name TEXT NOT NULL,
        confidence REAL NOT NULL,
        PRIMARY KEY (item_id, kind, name)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX result_names_batch_kind_name ON result_names(batch_id, kind, name COLLATE NOCASE, item_id);

      CREATE TABLE thumbnails (
        item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
        mime TEXT NOT NULL,
        bytes BLOB NOT NULL
      ) STRICT;
    `);
  },
};
