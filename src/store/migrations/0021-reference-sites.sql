-- Identifier occurrences, one row per file, name and kind with the sites packed
-- in `sites` (see src/store/code/reference-sites.ts), clustered on the lookup
-- key. One row per occurrence, with a rowid, an order index and a file index,
-- held the project, file id, path and names three times: 44 of vuejs/core's
-- 108 MB for 129k occurrences, which pack into 28k rows.
CREATE TABLE code_reference_sites (
  project_id TEXT NOT NULL,
  folded     TEXT NOT NULL,
  name       TEXT NOT NULL,
  kind       TEXT NOT NULL CHECK (kind IN ('declaration', 'usage')),
  -- files.rowid: the file's id and path are read from `files` (the full-text
  -- indexes key files by rowid too; nothing here renumbers them).
  file_rowid INTEGER NOT NULL,
  -- How many sites `sites` holds (counts read this, not the text).
  n          INTEGER NOT NULL,
  -- Comma-separated, in (line_start, name_col) order: `line_start:name_col` when
  -- the site is one line with no symbol, else
  -- `line_start:name_col:line_end:name_line:symbol_id` (symbol_id empty for none).
  sites      TEXT NOT NULL,
  PRIMARY KEY (project_id, folded, name, kind, file_rowid)
) WITHOUT ROWID;
CREATE INDEX code_reference_sites_file ON code_reference_sites (file_rowid);

-- A rowid is no foreign key: a deleted file's rows go with it here.
CREATE TRIGGER code_reference_sites_file_deleted AFTER DELETE ON files BEGIN
  DELETE FROM code_reference_sites WHERE file_rowid = old.rowid;
END;

INSERT INTO code_reference_sites (project_id, folded, name, kind, file_rowid, n, sites)
SELECT r.project_id, r.folded, r.name, r.kind, f.rowid, count(*),
  group_concat(
    CASE WHEN r.line_end = r.line_start AND r.name_line = r.line_start AND r.symbol_id IS NULL
      THEN r.line_start || ':' || r.name_col
      ELSE r.line_start || ':' || r.name_col || ':' || r.line_end || ':' || r.name_line || ':' || ifnull(r.symbol_id, '') END,
    ',' ORDER BY r.line_start, r.name_col, r.rowid)
FROM code_references r JOIN files f ON f.file_id = r.file_id
GROUP BY r.project_id, r.folded, r.name, r.kind, f.rowid;

DROP TABLE code_references;
