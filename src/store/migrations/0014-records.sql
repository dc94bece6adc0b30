-- Artifact schemas and the records submitted against them.
--
-- A schema is named per project (`name_key`, the name lower-cased, is unique:
-- saving a schema under a name it already has updates it and keeps its id).
-- Its records become graph rows so retrieval finds them: cells need a file
-- and a faction, so each schema owns one file, `.pks/records/<name>.jsonl`
-- (a path no ingest call or folder sync can reach), pointing at the empty
-- chunk and `ready` from the start; each record is one `row` faction of that
-- file with one cell, and one entity of kind `record`.

CREATE TABLE artifact_schemas (
  schema_id  TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  name       TEXT NOT NULL,
  name_key   TEXT NOT NULL,
  fields     TEXT NOT NULL,  -- JSON: [{name, type, required}]
  file_id    TEXT NOT NULL UNIQUE REFERENCES files (file_id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, name_key)
);

-- One row per accepted submission. A filled honeypot keeps the row with
-- spam = 1 and nothing derived (no faction, cell or entity): it is never
-- listed or retrieved. The derived rows go with the record's file.
CREATE TABLE records (
  record_id  TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  schema_id  TEXT NOT NULL REFERENCES artifact_schemas (schema_id) ON DELETE CASCADE,
  data       TEXT NOT NULL,  -- JSON object, as checked (spam: as sent)
  spam       INTEGER NOT NULL DEFAULT 0 CHECK (spam IN (0, 1)),
  cell_id    TEXT REFERENCES cells (cell_id) ON DELETE SET NULL,
  entity_id  TEXT REFERENCES entities (entity_id) ON DELETE SET NULL,
  created_at TEXT NOT NULL
);
-- The records read: a project's (or one schema's) live records by id.
CREATE INDEX records_project ON records (project_id, spam, record_id);
CREATE INDEX records_schema ON records (schema_id, spam, record_id);

-- A schema's records file holds no bytes and is never read: its factions and
-- cells are written by submissions, so a content replacement or a re-read
-- (which would retire them) is refused.
CREATE TRIGGER records_file_fixed BEFORE UPDATE OF chunk_id, status ON files
WHEN EXISTS (SELECT 1 FROM artifact_schemas s WHERE s.file_id = OLD.file_id)
BEGIN
  SELECT RAISE(ABORT, 'the records file of an artifact schema is written by submissions only');
END;
