-- foreign_keys: off
-- Factions and cells keyed by rowids where they named their file, project,
-- faction and parent by 26-character text ids: in every row, and again in
-- every index entry (`factions_file`, `cells_file`, `cells_faction`,
-- `cells_project`, `cells_parent`). On vuejs/core (18.4k factions, 11.5k
-- cells) those ids, with the content hash cut to the 22 characters the
-- diff compares (about 130 bits), were 4 of the database's 32 MB.
--
-- The rows live in `faction_rows` and `cell_rows`; `factions` and `cells`
-- are views of the old shape over them, so a read names public ids as
-- before and SQLite turns them into rowid look-ups (a view's LEFT JOIN on
-- a unique key is left out when the read uses none of its columns, and is
-- an inner join when the read filters on them). Writes go to the tables
-- (src/store/graph/factions.ts, cells.ts). Public ids are unchanged, and so
-- are the rowids (the full-text index and `cell_entities` key cells by
-- them); nothing may VACUUM the database. A rowid is no foreign key, so a
-- deleted file's factions and cells go by trigger, as the cascades did.
--
-- The tables are rebuilt with foreign keys off (migrate.ts runs this file
-- so, and checks them before it commits): dropping a table that others
-- reference would otherwise delete their rows. Renaming first moves those
-- references (category members, records, symbol mentions) to the new names.
ALTER TABLE factions RENAME TO faction_rows;
ALTER TABLE cells RENAME TO cell_rows;

CREATE TABLE faction_rows_new (
  faction_id     TEXT PRIMARY KEY,
  file_rowid     INTEGER NOT NULL,
  content_hash   TEXT NOT NULL,
  ordinal        INTEGER NOT NULL,
  faction_type   TEXT NOT NULL,
  inferred_type  TEXT NOT NULL,
  line_start     INTEGER,
  line_end       INTEGER,
  pdf_page_start INTEGER,
  pdf_page_end   INTEGER,
  audio_start_ms INTEGER,
  video_start_ms INTEGER,
  heading_path   TEXT NOT NULL DEFAULT '[]',
  text           TEXT NOT NULL,
  retired_at     TEXT,
  text_at_lines  INTEGER NOT NULL DEFAULT 0
);
INSERT INTO faction_rows_new (rowid, faction_id, file_rowid, content_hash, ordinal, faction_type, inferred_type,
  line_start, line_end, pdf_page_start, pdf_page_end, audio_start_ms, video_start_ms, heading_path, text, retired_at, text_at_lines)
SELECT f.rowid, f.faction_id, fi.rowid, substr(f.content_hash, 1, 22), f.ordinal, f.faction_type, f.inferred_type,
  f.line_start, f.line_end, f.pdf_page_start, f.pdf_page_end, f.audio_start_ms, f.video_start_ms, f.heading_path, f.text, f.retired_at, f.text_at_lines
FROM faction_rows f JOIN files fi ON fi.file_id = f.file_id;

CREATE TABLE cell_rows_new (
  cell_id       TEXT PRIMARY KEY,
  project_rowid INTEGER NOT NULL,
  file_rowid    INTEGER NOT NULL,
  faction_rowid INTEGER NOT NULL,
  parent_rowid  INTEGER,
  ordinal       INTEGER NOT NULL,
  text          TEXT NOT NULL,
  retired_at    TEXT,
  updated_at    TEXT NOT NULL
);
INSERT INTO cell_rows_new (rowid, cell_id, project_rowid, file_rowid, faction_rowid, parent_rowid, ordinal, text, retired_at, updated_at)
SELECT c.rowid, c.cell_id, p.rowid, fi.rowid, fa.rowid, pc.rowid, c.ordinal, c.text, c.retired_at, c.updated_at
FROM cell_rows c
JOIN projects p ON p.project_id = c.project_id
JOIN files fi ON fi.file_id = c.file_id
JOIN faction_rows fa ON fa.faction_id = c.faction_id
LEFT JOIN cell_rows pc ON pc.cell_id = c.parent_cell_id;

DROP TRIGGER cell_entities_cell_deleted;
DROP TABLE cell_rows;
DROP TABLE faction_rows;
ALTER TABLE faction_rows_new RENAME TO faction_rows;
ALTER TABLE cell_rows_new RENAME TO cell_rows;

CREATE INDEX factions_file ON faction_rows (file_rowid, retired_at, ordinal);
CREATE INDEX cells_faction ON cell_rows (faction_rowid, retired_at, ordinal);
CREATE INDEX cells_file ON cell_rows (file_rowid, retired_at);
CREATE INDEX cells_parent ON cell_rows (parent_rowid);
CREATE INDEX cells_project ON cell_rows (project_rowid, retired_at, cell_id);

CREATE TRIGGER faction_rows_file_deleted AFTER DELETE ON files BEGIN
  DELETE FROM cell_rows WHERE file_rowid = old.rowid;
  DELETE FROM faction_rows WHERE file_rowid = old.rowid;
END;
CREATE TRIGGER cell_entities_cell_deleted AFTER DELETE ON cell_rows BEGIN
  DELETE FROM cell_entities WHERE cell_rowid = old.rowid;
END;

CREATE VIEW factions AS
SELECT f.rowid AS rowid, f.faction_id, fi.project_id, fi.file_id, f.content_hash, f.ordinal, f.faction_type, f.inferred_type,
  f.line_start, f.line_end, f.pdf_page_start, f.pdf_page_end, f.audio_start_ms, f.video_start_ms, f.heading_path, f.text,
  f.retired_at, f.text_at_lines
FROM faction_rows f LEFT JOIN files fi ON fi.rowid = f.file_rowid;

CREATE VIEW cells AS
SELECT c.rowid AS rowid, c.cell_id, p.project_id, fi.file_id, fa.faction_id, pc.cell_id AS parent_cell_id, c.ordinal, c.text,
  c.retired_at, c.updated_at
FROM cell_rows c
LEFT JOIN projects p ON p.rowid = c.project_rowid
LEFT JOIN files fi ON fi.rowid = c.file_rowid
LEFT JOIN faction_rows fa ON fa.rowid = c.faction_rowid
LEFT JOIN cell_rows pc ON pc.rowid = c.parent_rowid;
