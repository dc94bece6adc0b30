-- Files, their bytes, and what reading them derived.

ALTER TABLE projects ADD COLUMN corpus_version INTEGER NOT NULL DEFAULT 0;

-- Content-addressed bytes, per project: chunk_id is 'sha256:<hex>'.
CREATE TABLE chunks (
  project_id TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  chunk_id   TEXT NOT NULL,
  size       INTEGER NOT NULL,
  bytes      BLOB NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (project_id, chunk_id)
);

-- One ingestion lease per project; its state is derived from its files.
CREATE TABLE leases (
  lease_id    TEXT PRIMARY KEY,
  project_id  TEXT NOT NULL UNIQUE REFERENCES projects (project_id) ON DELETE CASCADE,
  last_intent TEXT,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);

CREATE TABLE files (
  file_id       TEXT PRIMARY KEY,
  project_id    TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  path          TEXT NOT NULL,
  content_type  TEXT NOT NULL,
  file_type     TEXT NOT NULL,
  file_size     INTEGER NOT NULL,
  chunk_id      TEXT NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('queued', 'reading', 'ready', 'failed', 'retired')),
  error         TEXT,
  read_chunk_id TEXT,
  reads         INTEGER NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL,
  UNIQUE (project_id, path),
  FOREIGN KEY (project_id, chunk_id) REFERENCES chunks (project_id, chunk_id)
);
CREATE INDEX files_status ON files (status, updated_at);
CREATE INDEX files_project_status ON files (project_id, status);

CREATE TABLE factions (
  faction_id     TEXT PRIMARY KEY,
  project_id     TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  file_id        TEXT NOT NULL REFERENCES files (file_id) ON DELETE CASCADE,
  content_hash   TEXT NOT NULL,
  ordinal        INTEGER NOT NULL,
  faction_type   TEXT NOT NULL,
  inferred_type  TEXT NOT NULL,
  line_start     INTEGER,
  line_end       INTEGER,
  pdf_page_start INTEGER,
  pdf_page_end   INTEGER,
  audio_start_ms INTEGER,
  video_start_ms INTEGER,
  heading_path   TEXT NOT NULL DEFAULT '[]',
  text           TEXT NOT NULL,
  retired_at     TEXT,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL
);
CREATE INDEX factions_file ON factions (file_id, retired_at, ordinal);
CREATE INDEX factions_project ON factions (project_id, retired_at, faction_id);

CREATE TABLE cells (
  cell_id        TEXT PRIMARY KEY,
  project_id     TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  file_id        TEXT NOT NULL REFERENCES files (file_id) ON DELETE CASCADE,
  faction_id     TEXT NOT NULL REFERENCES factions (faction_id) ON DELETE CASCADE,
  parent_cell_id TEXT,
  ordinal        INTEGER NOT NULL,
  text           TEXT NOT NULL,
  retired_at     TEXT,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL
);
CREATE INDEX cells_faction ON cells (faction_id, retired_at, ordinal);
CREATE INDEX cells_file ON cells (file_id, retired_at);
CREATE INDEX cells_parent ON cells (parent_cell_id);
CREATE INDEX cells_project ON cells (project_id, retired_at, cell_id);
