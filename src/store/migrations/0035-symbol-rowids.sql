-- Symbols keyed by the rowids of their project, file, faction, cell and
-- entity where they named each by a 26-character id: five ids a row, and
-- the project's or file's again in every index (the primary key,
-- `symbols_name`, `symbols_qualified`, `symbols_file`). On vuejs/core
-- (5.6k symbols) the table and its indexes held 2.8 of the database's
-- 28 MB.
--
-- The rows live in `symbol_rows`; `symbols` is a view of the old shape over
-- it (as `0032-faction-cell-rowids.sql` made `factions` and `cells`), so
-- reads name public ids as before. Writes go to the table
-- (src/store/code/symbols.ts). Public ids are unchanged, and so are the
-- rowids (`symbols_fts` keys symbols by them); nothing may VACUUM the
-- database. Factions, cells and entities are retired, never deleted, while
-- their file lives; a rowid is no foreign key, so a deleted file's symbols
-- go by trigger, as the cascade did.
CREATE TABLE symbol_rows (
  project_rowid  INTEGER NOT NULL,
  symbol_id      TEXT NOT NULL,
  file_rowid     INTEGER NOT NULL,
  language       TEXT NOT NULL,
  name           TEXT NOT NULL,
  qualified_name TEXT NOT NULL,
  -- Number of enclosing declarations: 0 for a top-level symbol.
  depth          INTEGER NOT NULL,
  kind           TEXT NOT NULL,
  line_start     INTEGER NOT NULL,
  line_end       INTEGER NOT NULL,
  signature      TEXT NOT NULL,
  doc            TEXT,
  faction_rowid  INTEGER,
  cell_rowid     INTEGER,
  entity_rowid   INTEGER,
  retired_at     TEXT,
  PRIMARY KEY (project_rowid, symbol_id)
);
INSERT INTO symbol_rows (rowid, project_rowid, symbol_id, file_rowid, language, name, qualified_name, depth, kind, line_start,
  line_end, signature, doc, faction_rowid, cell_rowid, entity_rowid, retired_at)
SELECT s.rowid, p.rowid, s.symbol_id, fi.rowid, s.language, s.name, s.qualified_name, s.depth, s.kind, s.line_start,
  s.line_end, s.signature, s.doc, fa.rowid, c.rowid, e.rowid, s.retired_at
FROM symbols s
JOIN projects p ON p.project_id = s.project_id
JOIN files fi ON fi.file_id = s.file_id
LEFT JOIN faction_rows fa ON fa.faction_id = s.faction_id
LEFT JOIN cell_rows c ON c.cell_id = s.cell_id
LEFT JOIN entity_rows e ON e.entity_id = s.entity_id;
DROP TABLE symbols;

CREATE INDEX symbols_name ON symbol_rows (project_rowid, name, retired_at);
CREATE INDEX symbols_qualified ON symbol_rows (project_rowid, qualified_name, retired_at);
CREATE INDEX symbols_file ON symbol_rows (file_rowid, retired_at);

CREATE TRIGGER symbol_rows_file_deleted AFTER DELETE ON files BEGIN
  DELETE FROM symbol_rows WHERE file_rowid = old.rowid;
END;

CREATE VIEW symbols AS
SELECT s.rowid AS rowid, p.project_id, s.symbol_id, fi.file_id, s.language, s.name, s.qualified_name, s.depth, s.kind,
  s.line_start, s.line_end, s.signature, s.doc, fa.faction_id, c.cell_id, e.entity_id, s.retired_at
FROM symbol_rows s
LEFT JOIN projects p ON p.rowid = s.project_rowid
LEFT JOIN files fi ON fi.rowid = s.file_rowid
LEFT JOIN faction_rows fa ON fa.rowid = s.faction_rowid
LEFT JOIN cell_rows c ON c.rowid = s.cell_rowid
LEFT JOIN entity_rows e ON e.rowid = s.entity_rowid;
