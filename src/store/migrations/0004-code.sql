-- Code intelligence: declared symbols, identifier references and imports of code files.
-- Rows hang off their file (ON DELETE CASCADE; a project's files cascade with it). The
-- faction, cell and entity ids a symbol carries are written in the same transaction as
-- those rows and are not re-checked by foreign keys: a bulk index writes millions of rows.

-- One row per declaration ever read; a symbol keeps its stable id across re-reads
-- and is retired (not deleted) when its file stops declaring it.
CREATE TABLE symbols (
  project_id     TEXT NOT NULL,
  symbol_id      TEXT NOT NULL,
  file_id        TEXT NOT NULL REFERENCES files (file_id) ON DELETE CASCADE,
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
  faction_id     TEXT,
  cell_id        TEXT,
  entity_id      TEXT,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL,
  retired_at     TEXT,
  PRIMARY KEY (project_id, symbol_id)
);
CREATE INDEX symbols_name ON symbols (project_id, name, retired_at);
CREATE INDEX symbols_file ON symbols (file_id, retired_at);

-- Every declaration and usage of an identifier; a file's rows are replaced whole on each reading.
-- `folded` is the lower-cased name; the index serves prefix ranges already in listing order.
CREATE TABLE code_references (
  project_id TEXT NOT NULL,
  file_id    TEXT NOT NULL REFERENCES files (file_id) ON DELETE CASCADE,
  path       TEXT NOT NULL,
  name       TEXT NOT NULL,
  folded     TEXT NOT NULL,
  kind       TEXT NOT NULL CHECK (kind IN ('declaration', 'usage')),
  -- A declaration's whole span; a usage's identifier.
  line_start INTEGER NOT NULL,
  line_end   INTEGER NOT NULL,
  -- Where the identifier itself sits (column in UTF-16 code units, 0-based).
  name_line  INTEGER NOT NULL,
  name_col   INTEGER NOT NULL,
  -- The declared symbol for a declaration; NULL for a usage (resolved when read).
  symbol_id  TEXT
);
CREATE INDEX code_references_order ON code_references (project_id, folded, name, kind, path, line_start, name_col);
CREATE INDEX code_references_file ON code_references (file_id);

-- The distinct folded names of a project's references: substring matching scans these, not every row.
CREATE TABLE code_names (
  project_id TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  folded     TEXT NOT NULL,
  PRIMARY KEY (project_id, folded)
) WITHOUT ROWID;

-- Imports of a code file, one row per local binding (or one row with no names).
-- module_key/key_mode say which files the import may mean (see src/code/module-keys.ts).
CREATE TABLE file_imports (
  project_id    TEXT NOT NULL,
  file_id       TEXT NOT NULL REFERENCES files (file_id) ON DELETE CASCADE,
  line          INTEGER NOT NULL,
  specifier     TEXT NOT NULL,
  local_name    TEXT,
  imported_name TEXT,
  module_key    TEXT,
  key_mode      TEXT NOT NULL CHECK (key_mode IN ('exact', 'suffix', 'external', 'unknown'))
);
CREATE INDEX file_imports_file ON file_imports (file_id, local_name);
CREATE INDEX file_imports_key ON file_imports (project_id, module_key);

-- The path keys each live code file answers to.
CREATE TABLE file_module_keys (
  project_id TEXT NOT NULL,
  key        TEXT NOT NULL,
  file_id    TEXT NOT NULL REFERENCES files (file_id) ON DELETE CASCADE,
  -- 1 when the key names the whole path; 0 for a shorter tail of it.
  full       INTEGER NOT NULL,
  PRIMARY KEY (project_id, key, file_id)
) WITHOUT ROWID;
CREATE INDEX file_module_keys_file ON file_module_keys (file_id);

-- File-to-file import edges, resolved as read: an import whose target is read later gains its edge then.
CREATE VIEW file_import_edges AS
SELECT DISTINCT i.project_id, i.file_id AS from_file_id, k.file_id AS to_file_id
FROM file_imports i
JOIN file_module_keys k
  ON k.project_id = i.project_id AND k.key = i.module_key AND (k.full = 1 OR i.key_mode = 'suffix')
WHERE i.key_mode IN ('exact', 'suffix') AND k.file_id <> i.file_id;
