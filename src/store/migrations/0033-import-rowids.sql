-- A code file's imports and the path keys it answers to, keyed by the
-- project's and the file's rowids where they named both by 26-character
-- ids, in the rows and again in every index entry (file_imports_file,
-- file_imports_key, the key of file_module_keys and its file index): on
-- vuejs/core (6.0k imports, 5.6k keys) 2.5 -> 1.4 MB. Reads join `files`
-- for the public ids, and a bound project id becomes its rowid in a
-- subquery (src/store/code/file-imports.ts, code-pack-reads.ts,
-- code-graph-reads.ts). Nothing references these tables; a rowid is no
-- foreign key, so a trigger deletes a deleted file's rows, as the cascade
-- did. Nothing may VACUUM the database, so the rowids do not change.
DROP VIEW file_import_edges;

CREATE TABLE file_imports_by_rowid (
  project_rowid INTEGER NOT NULL,
  file_rowid    INTEGER NOT NULL,
  line          INTEGER NOT NULL,
  specifier     TEXT NOT NULL,
  local_name    TEXT,
  imported_name TEXT,
  module_key    TEXT,
  key_mode      TEXT NOT NULL CHECK (key_mode IN ('exact', 'suffix', 'external', 'unknown'))
);
INSERT INTO file_imports_by_rowid (project_rowid, file_rowid, line, specifier, local_name, imported_name, module_key, key_mode)
SELECT p.rowid, f.rowid, i.line, i.specifier, i.local_name, i.imported_name, i.module_key, i.key_mode
FROM file_imports i JOIN projects p ON p.project_id = i.project_id JOIN files f ON f.file_id = i.file_id;
DROP TABLE file_imports;
ALTER TABLE file_imports_by_rowid RENAME TO file_imports;
CREATE INDEX file_imports_file ON file_imports (file_rowid, local_name);
CREATE INDEX file_imports_key ON file_imports (project_rowid, module_key);

CREATE TABLE file_module_keys_by_rowid (
  project_rowid INTEGER NOT NULL,
  key           TEXT NOT NULL,
  file_rowid    INTEGER NOT NULL,
  -- 1 when the key names the whole path; 0 for a shorter tail of it.
  full          INTEGER NOT NULL,
  PRIMARY KEY (project_rowid, key, file_rowid)
) WITHOUT ROWID;
INSERT INTO file_module_keys_by_rowid (project_rowid, key, file_rowid, full)
SELECT p.rowid, k.key, f.rowid, k.full
FROM file_module_keys k JOIN projects p ON p.project_id = k.project_id JOIN files f ON f.file_id = k.file_id;
DROP TABLE file_module_keys;
ALTER TABLE file_module_keys_by_rowid RENAME TO file_module_keys;
CREATE INDEX file_module_keys_file ON file_module_keys (file_rowid);

CREATE TRIGGER file_imports_file_deleted AFTER DELETE ON files BEGIN
  DELETE FROM file_imports WHERE file_rowid = old.rowid;
  DELETE FROM file_module_keys WHERE file_rowid = old.rowid;
END;

-- File-to-file import edges, resolved as read: an import whose target is read later gains its edge then.
CREATE VIEW file_import_edges AS
SELECT DISTINCT p.project_id, fa.file_id AS from_file_id, fb.file_id AS to_file_id
FROM file_imports i
JOIN file_module_keys k
  ON k.project_rowid = i.project_rowid AND k.key = i.module_key AND (k.full = 1 OR i.key_mode = 'suffix')
JOIN projects p ON p.rowid = i.project_rowid
JOIN files fa ON fa.rowid = i.file_rowid
JOIN files fb ON fb.rowid = k.file_rowid
WHERE i.key_mode IN ('exact', 'suffix') AND k.file_rowid <> i.file_rowid;
