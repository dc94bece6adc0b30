-- A cell's update time as integer milliseconds since 1970 (`updated_ms`)
-- where it was a 24-character ISO string in every row (448k cells on a
-- tree of 4.4 M lines: about 8 MB of 695). The `cells` view gives the same
-- string back (`strftime('%Y-%m-%dT%H:%M:%fZ', …)` is exactly what
-- `Date.prototype.toISOString` wrote, milliseconds included), so reads
-- name `updated_at` as before; writes store `Date.parse(now)`
-- (src/store/graph/cells.ts). No index names the column.
DROP VIEW cells;
ALTER TABLE cell_rows ADD COLUMN updated_ms INTEGER NOT NULL DEFAULT 0;
UPDATE cell_rows SET updated_ms = ifnull(CAST(round((julianday(updated_at) - 2440587.5) * 86400000.0) AS INTEGER), 0);
ALTER TABLE cell_rows DROP COLUMN updated_at;

CREATE VIEW cells AS
SELECT c.rowid AS rowid, c.cell_id, p.project_id, fi.file_id, fa.faction_id, pc.cell_id AS parent_cell_id, c.ordinal, c.text,
  c.retired_at, strftime('%Y-%m-%dT%H:%M:%fZ', c.updated_ms / 1000.0, 'unixepoch') AS updated_at
FROM cell_rows c
LEFT JOIN projects p ON p.rowid = c.project_rowid
LEFT JOIN files fi ON fi.rowid = c.file_rowid
LEFT JOIN faction_rows fa ON fa.rowid = c.faction_rowid
LEFT JOIN cell_rows pc ON pc.rowid = c.parent_rowid;
