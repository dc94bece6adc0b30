-- Accounts, projects and access.

CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE users (
  user_id    TEXT PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);

CREATE TABLE projects (
  project_id TEXT PRIMARY KEY,
  name       TEXT NOT NULL,
  parent_id  TEXT REFERENCES projects (project_id),
  root_path  TEXT UNIQUE,
  created_at TEXT NOT NULL
);

CREATE TABLE memberships (
  project_id TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  user_id    TEXT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  level      TEXT NOT NULL CHECK (level IN ('viewer', 'editor', 'owner')),
  PRIMARY KEY (project_id, user_id)
);

CREATE TABLE api_keys (
  key_id        TEXT PRIMARY KEY,
  user_id       TEXT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  name          TEXT NOT NULL DEFAULT '',
  prefix        TEXT NOT NULL,
  hash          TEXT NOT NULL UNIQUE,
  tier          TEXT NOT NULL CHECK (tier IN ('standard', 'submit')),
  project_id    TEXT REFERENCES projects (project_id) ON DELETE CASCADE,
  bound_type_id TEXT,
  created_at    TEXT NOT NULL,
  revoked_at    TEXT
);
CREATE INDEX api_keys_prefix ON api_keys (prefix);

CREATE TABLE sessions (
  session_id TEXT PRIMARY KEY,
  hash       TEXT NOT NULL UNIQUE,
  user_id    TEXT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  key_id     TEXT REFERENCES api_keys (key_id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);

-- Sliding-log rate limiting shared by every process on this database.
CREATE TABLE rate_events (
  subject TEXT NOT NULL,
  at_ms   INTEGER NOT NULL
);
CREATE INDEX rate_events_subject_at ON rate_events (subject, at_ms);
