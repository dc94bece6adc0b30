-- Named entities found in documents: every spelling (normalized) that names
-- an entity, and code identifiers mentioned in documents, kept so a symbol
-- read later still links to the cells that mention it.

CREATE TABLE entity_aliases (
  project_id TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  norm_name  TEXT NOT NULL,
  entity_id  TEXT NOT NULL REFERENCES entities (entity_id) ON DELETE CASCADE,
  PRIMARY KEY (project_id, norm_name)
);

CREATE TABLE symbol_mentions (
  cell_id    TEXT NOT NULL REFERENCES cells (cell_id) ON DELETE CASCADE,
  project_id TEXT NOT NULL,
  name       TEXT NOT NULL,
  PRIMARY KEY (cell_id, name)
);
CREATE INDEX symbol_mentions_name ON symbol_mentions (project_id, name);
