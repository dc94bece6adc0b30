-- A packed reference row's kind as `usage` (1 for a usage, 0 for a
-- declaration) where it was the word 'usage' or 'declaration' in every row
-- and again in every entry of the file index, which carries the key: 6 bytes
-- a row twice over (190k rows on a tree of 1 M lines), where 0 and 1 take
-- none (SQLite stores both in the record header). 0 sorts before 1 as
-- 'declaration' before 'usage', so the key lists in the same order. Reads
-- give the word back (`KIND` in src/store/code/code-references.ts).
CREATE TABLE code_reference_sites_flagged (
  project_rowid INTEGER NOT NULL,
  folded        TEXT NOT NULL,
  name          TEXT NOT NULL,
  usage         INTEGER NOT NULL CHECK (usage IN (0, 1)),
  file_rowid    INTEGER NOT NULL,
  n             INTEGER NOT NULL,
  sites         TEXT NOT NULL,
  PRIMARY KEY (project_rowid, folded, name, usage, file_rowid)
) WITHOUT ROWID;
INSERT INTO code_reference_sites_flagged (project_rowid, folded, name, usage, file_rowid, n, sites)
SELECT project_rowid, folded, name, kind = 'usage', file_rowid, n, sites FROM code_reference_sites;
DROP TRIGGER code_reference_sites_file_deleted;
DROP TABLE code_reference_sites;
ALTER TABLE code_reference_sites_flagged RENAME TO code_reference_sites;
CREATE INDEX code_reference_sites_file ON code_reference_sites (file_rowid);
CREATE TRIGGER code_reference_sites_file_deleted AFTER DELETE ON files BEGIN
  DELETE FROM code_reference_sites WHERE file_rowid = old.rowid;
END;
