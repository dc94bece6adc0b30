-- A cell's text without its file's path: a declaration's cell names the
-- file it lives in (`method Greeter.greet — greet(): string — src/greet.ts
-- — …`), which `files.path` holds once for all of them (on a tree of 1 M
-- lines 42.5k cells, 2 MB of paths). A cell holding its file's path stores
-- its text with the first occurrence cut out and `path_at`, the count of
-- characters before it; the `cells` view puts the path back, so reads get
-- the text as written. A file's path never changes (a move is a new file),
-- and a retired cell keeps no text and no `path_at`.
DROP VIEW cells;
ALTER TABLE cell_rows ADD COLUMN path_at INTEGER;
UPDATE cell_rows SET
  path_at = instr(text, (SELECT path FROM files WHERE rowid = cell_rows.file_rowid)) - 1,
  text = substr(text, 1, instr(text, (SELECT path FROM files WHERE rowid = cell_rows.file_rowid)) - 1)
    || substr(text, instr(text, (SELECT path FROM files WHERE rowid = cell_rows.file_rowid)) + length((SELECT path FROM files WHERE rowid = cell_rows.file_rowid)))
WHERE retired_at IS NULL AND instr(text, (SELECT path FROM files WHERE rowid = cell_rows.file_rowid)) > 0;

CREATE VIEW cells AS
SELECT c.rowid AS rowid, c.cell_id, p.project_id, fi.file_id, fa.faction_id, pc.cell_id AS parent_cell_id, c.ordinal,
  CASE WHEN c.path_at IS NULL THEN c.text ELSE substr(c.text, 1, c.path_at) || fi.path || substr(c.text, c.path_at + 1) END AS text,
  c.retired_at, strftime('%Y-%m-%dT%H:%M:%fZ', c.updated_ms / 1000.0, 'unixepoch') AS updated_at
FROM cell_rows c
LEFT JOIN projects p ON p.rowid = c.project_rowid
LEFT JOIN files fi ON fi.rowid = c.file_rowid
LEFT JOIN faction_rows fa ON fa.rowid = c.faction_rowid
LEFT JOIN cell_rows pc ON pc.rowid = c.parent_rowid;
