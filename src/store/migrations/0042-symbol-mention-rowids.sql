-- Symbol mentions by rowid: a cell's mention of a code name keyed by
-- (cell_rows.rowid, name), with the project as its rowid, instead of two
-- 26-character text ids stored in the table, in its key's index and (the
-- project's) again in its name index (4.5 MB of a 1 M-line tree's 170 MB
-- for 22.7k mentions). WITHOUT ROWID: the key is the table. A rowid is no
-- foreign key, so a trigger deletes a deleted cell's mentions, as the
-- cascade did; cell rowids are stable (the full-text index keys cells by
-- them). Public ids are unchanged.
CREATE TABLE symbol_mention_rowids (
  cell_rowid    INTEGER NOT NULL,
  project_rowid INTEGER NOT NULL,
  name          TEXT NOT NULL,
  PRIMARY KEY (cell_rowid, name)
) WITHOUT ROWID;
INSERT INTO symbol_mention_rowids (cell_rowid, project_rowid, name)
SELECT c.rowid, p.rowid, m.name FROM symbol_mentions m
JOIN cell_rows c ON c.cell_id = m.cell_id
JOIN projects p ON p.project_id = m.project_id;
DROP TABLE symbol_mentions;
ALTER TABLE symbol_mention_rowids RENAME TO symbol_mentions;
CREATE INDEX symbol_mentions_name ON symbol_mentions (project_rowid, name);

CREATE TRIGGER symbol_mentions_cell_deleted AFTER DELETE ON cell_rows BEGIN
  DELETE FROM symbol_mentions WHERE cell_rowid = old.rowid;
END;
