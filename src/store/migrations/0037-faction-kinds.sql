-- A faction's type and inferred media type, two strings repeated in every
-- row ('code_unit', 'text/x-typescript'), named by the rowid of the pair in
-- `faction_kinds` (on vuejs/core 18.4k factions carried 0.44 MB of them in
-- 23 distinct pairs). The `factions` view reads the pair back, so reads and
-- filters name the strings as before; writes look the pair up or add it
-- (src/store/graph/factions.ts). A pair is never deleted.
CREATE TABLE faction_kinds (
  kind_rowid    INTEGER PRIMARY KEY,
  faction_type  TEXT NOT NULL,
  inferred_type TEXT NOT NULL,
  UNIQUE (faction_type, inferred_type)
);
INSERT INTO faction_kinds (faction_type, inferred_type)
SELECT DISTINCT faction_type, inferred_type FROM faction_rows ORDER BY 1, 2;

DROP VIEW factions;
ALTER TABLE faction_rows ADD COLUMN kind_rowid INTEGER NOT NULL DEFAULT 0;
UPDATE faction_rows SET kind_rowid = (
  SELECT k.kind_rowid FROM faction_kinds k WHERE k.faction_type = faction_rows.faction_type AND k.inferred_type = faction_rows.inferred_type);
ALTER TABLE faction_rows DROP COLUMN faction_type;
ALTER TABLE faction_rows DROP COLUMN inferred_type;

CREATE VIEW factions AS
SELECT f.rowid AS rowid, f.faction_id, fi.project_id, fi.file_id, f.content_hash, f.ordinal, k.faction_type, k.inferred_type,
  f.line_start, f.line_end, f.pdf_page_start, f.pdf_page_end, f.audio_start_ms, f.video_start_ms, f.heading_path, f.text,
  f.retired_at, f.text_at_lines
FROM faction_rows f LEFT JOIN files fi ON fi.rowid = f.file_rowid LEFT JOIN faction_kinds k ON k.kind_rowid = f.kind_rowid;
