-- Entities: what cells resolve to (symbols, files, modules, people, concepts, types …).

CREATE TABLE entities (
  entity_id      TEXT PRIMARY KEY,
  project_id     TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  name           TEXT NOT NULL,
  -- Lower-cased, singular, punctuation-folded name: variants of one name share it.
  norm_name      TEXT NOT NULL,
  kind           TEXT NOT NULL CHECK (kind IN ('person', 'organization', 'product', 'place', 'event', 'concept',
                   'document', 'file', 'module', 'symbol', 'category', 'record')),
  type_entity_id TEXT REFERENCES entities (entity_id),
  -- For kind 'symbol': the stable symbol id; for 'file': the file id; else NULL.
  source_key     TEXT,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL,
  UNIQUE (project_id, kind, source_key)
);
CREATE INDEX entities_norm ON entities (project_id, norm_name);
CREATE INDEX entities_kind ON entities (project_id, kind, entity_id);
CREATE INDEX entities_type ON entities (type_entity_id);

-- Which entities a cell backs. A cell's links retire with the cell.
CREATE TABLE cell_entities (
  cell_id   TEXT NOT NULL REFERENCES cells (cell_id) ON DELETE CASCADE,
  entity_id TEXT NOT NULL REFERENCES entities (entity_id) ON DELETE CASCADE,
  PRIMARY KEY (cell_id, entity_id)
);
CREATE INDEX cell_entities_entity ON cell_entities (entity_id, cell_id);

CREATE TABLE entity_roles (
  entity_id TEXT NOT NULL REFERENCES entities (entity_id) ON DELETE CASCADE,
  role      TEXT NOT NULL,
  PRIMARY KEY (entity_id, role)
);
CREATE INDEX entity_roles_role ON entity_roles (role, entity_id);
