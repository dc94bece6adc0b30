-- Typed knowledge: types (entities of kind 'category') with a schema of
-- fields, proposals of types read from the shapes sections share, pending
-- schema changes ingestion proposes on a confirmed type, the sections filed
-- under a type, and each member's filled cell.

-- A type's schema. No row: version 0, no fields. Each accepted edit or
-- approval adds 1 to `version` (optimistic concurrency for edits).
CREATE TABLE category_schemas (
  entity_id  TEXT PRIMARY KEY REFERENCES entities (entity_id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  version    INTEGER NOT NULL,
  fields     TEXT NOT NULL,  -- JSON: [{name, type, description, required}]
  updated_at TEXT NOT NULL
);

-- At most one pending change per type: the whole field list ingestion
-- proposes (the live fields plus what new material showed), and the sections
-- it was read from. Approve makes it the schema; reject drops it.
CREATE TABLE schema_proposals (
  entity_id    TEXT PRIMARY KEY REFERENCES entities (entity_id) ON DELETE CASCADE,
  project_id   TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  base_version INTEGER NOT NULL,
  fields       TEXT NOT NULL,
  evidence     TEXT NOT NULL,  -- JSON: faction ids
  created_at   TEXT NOT NULL
);

-- Types proposed by reading. `fingerprint` names the shape (source kind and
-- normalised name): one proposal per shape and project, so a rejected shape
-- (status 2) is never proposed again and a confirmed one (status 1) keeps
-- its type in `entity_id`. Status 0 is pending.
CREATE TABLE category_proposals (
  proposal_id TEXT PRIMARY KEY,
  project_id  TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  fingerprint TEXT NOT NULL,
  name        TEXT NOT NULL,
  description TEXT NOT NULL,
  fields      TEXT NOT NULL,
  evidence    TEXT NOT NULL,
  status      INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
  entity_id   TEXT REFERENCES entities (entity_id) ON DELETE SET NULL,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  UNIQUE (project_id, fingerprint)
);
CREATE INDEX category_proposals_newest ON category_proposals (project_id, created_at, proposal_id);

-- Sections filed under a type: each faction of a member's section, with the
-- member entity the section describes.
CREATE TABLE category_members (
  faction_id         TEXT NOT NULL REFERENCES factions (faction_id) ON DELETE CASCADE,
  category_entity_id TEXT NOT NULL REFERENCES entities (entity_id) ON DELETE CASCADE,
  entity_id          TEXT NOT NULL REFERENCES entities (entity_id) ON DELETE CASCADE,
  PRIMARY KEY (category_entity_id, faction_id)
);
CREATE INDEX category_members_entity ON category_members (entity_id);

-- One filled cell per member and type: the values read from the member's
-- own cells against the schema `schema_version`, each field citing its
-- cells. `material` fingerprints the factions it was read from: a member is
-- read again when its material changes (new material), not on every edit.
CREATE TABLE filled_cells (
  cell_id          TEXT PRIMARY KEY,
  project_id       TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  category_entity_id TEXT NOT NULL REFERENCES entities (entity_id) ON DELETE CASCADE,
  entity_id        TEXT NOT NULL REFERENCES entities (entity_id) ON DELETE CASCADE,
  schema_version   INTEGER NOT NULL,
  field_values     TEXT NOT NULL,  -- JSON: {field: value}
  sources          TEXT NOT NULL,  -- JSON: {field: cellIds}
  file_ids         TEXT NOT NULL,  -- JSON: file ids
  material         TEXT NOT NULL,
  text             TEXT NOT NULL,
  updated_at       TEXT NOT NULL,
  UNIQUE (category_entity_id, entity_id)
);
