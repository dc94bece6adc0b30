-- Packed references keyed by the project's rowid, not its 26-character id:
-- the id led the key of every row and of every entry of the file index,
-- which carries the key (28k rows on vuejs/core: about 1.4 MB of the two).
-- A row's project is its file's, so reads take the id from `files`; a
-- project id bound to a read becomes its rowid in a subquery
-- (src/store/code/code-references.ts). Nothing may VACUUM the database, so
-- projects' rowids, like files', do not change.
CREATE TABLE code_reference_sites_by_rowid (
  project_rowid INTEGER NOT NULL,
  folded        TEXT NOT NULL,
  name          TEXT NOT NULL,
  kind          TEXT NOT NULL CHECK (kind IN ('declaration', 'usage')),
  file_rowid    INTEGER NOT NULL,
  n             INTEGER NOT NULL,
  sites         TEXT NOT NULL,
  PRIMARY KEY (project_rowid, folded, name, kind, file_rowid)
) WITHOUT ROWID;
INSERT INTO code_reference_sites_by_rowid (project_rowid, folded, name, kind, file_rowid, n, sites)
SELECT p.rowid, r.folded, r.name, r.kind, r.file_rowid, r.n, r.sites
FROM code_reference_sites r JOIN projects p ON p.project_id = r.project_id;
DROP TRIGGER code_reference_sites_file_deleted;
DROP TABLE code_reference_sites;
ALTER TABLE code_reference_sites_by_rowid RENAME TO code_reference_sites;
CREATE INDEX code_reference_sites_file ON code_reference_sites (file_rowid);
-- A rowid is no foreign key: a deleted file's rows go with it here.
CREATE TRIGGER code_reference_sites_file_deleted AFTER DELETE ON files BEGIN
  DELETE FROM code_reference_sites WHERE file_rowid = old.rowid;
END;
