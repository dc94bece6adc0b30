-- foreign_keys: off
-- Entities keyed by their project's rowid where they named it by its
-- 26-character id: in every row and again in every index, each of which
-- leads with it (`entities_norm`, `entities_kind`, `entities_lower_name`,
-- `entities_project_order`, the unique key of kind and source key). And the
-- two timestamps, which no read selects. On vuejs/core (6.6k entities) the
-- table and its indexes held 3.8 of the database's 28 MB.
--
-- The rows live in `entity_rows`; `entities` is a view of the old shape
-- over it, so reads name public ids as before and SQLite turns a bound
-- project id into a rowid look-up (the view's LEFT JOIN is an inner join
-- when the read filters on the project id, and is left out when the read
-- uses none of its columns). Writes go to the table
-- (src/store/graph/entities.ts, named-entities.ts,
-- src/store/categories/category-members.ts). Public ids are unchanged, and
-- so are the rowids (`cell_entities` keys entities by them); nothing may
-- VACUUM the database. A rowid is no foreign key, so a deleted project's
-- entities go by trigger, as the cascade did.
--
-- The table is rebuilt with foreign keys off (migrate.ts runs this file so
-- and checks them before it commits). Renaming first moves the references
-- of other tables (aliases, roles, categories, records) to the new name.
ALTER TABLE entities RENAME TO entity_rows;

CREATE TABLE entity_rows_new (
  entity_id      TEXT PRIMARY KEY,
  project_rowid  INTEGER NOT NULL,
  name           TEXT NOT NULL,
  -- Lower-cased, singular, punctuation-folded name: variants of one name share it.
  norm_name      TEXT NOT NULL,
  kind           TEXT NOT NULL CHECK (kind IN ('person', 'organization', 'product', 'place', 'event', 'concept',
                   'document', 'file', 'module', 'symbol', 'category', 'record')),
  type_entity_id TEXT REFERENCES entity_rows_new (entity_id),
  -- For kind 'symbol': the stable symbol id; for 'file': the file id; else NULL.
  source_key     TEXT,
  UNIQUE (project_rowid, kind, source_key)
);
INSERT INTO entity_rows_new (rowid, entity_id, project_rowid, name, norm_name, kind, type_entity_id, source_key)
SELECT e.rowid, e.entity_id, p.rowid, e.name, e.norm_name, e.kind, e.type_entity_id, e.source_key
FROM entity_rows e JOIN projects p ON p.project_id = e.project_id;

DROP TRIGGER cell_entities_entity_deleted;
DROP TABLE entity_rows;
ALTER TABLE entity_rows_new RENAME TO entity_rows;

CREATE INDEX entities_norm ON entity_rows (project_rowid, norm_name);
CREATE INDEX entities_kind ON entity_rows (project_rowid, kind, entity_id);
CREATE INDEX entities_type ON entity_rows (type_entity_id);
CREATE INDEX entities_lower_name ON entity_rows (project_rowid, lower(name));
CREATE INDEX entities_project_order ON entity_rows (project_rowid, entity_id);

CREATE TRIGGER cell_entities_entity_deleted AFTER DELETE ON entity_rows BEGIN
  DELETE FROM cell_entities WHERE entity_rowid = old.rowid;
END;
CREATE TRIGGER entity_rows_project_deleted AFTER DELETE ON projects BEGIN
  DELETE FROM entity_rows WHERE project_rowid = old.rowid;
END;

CREATE VIEW entities AS
SELECT e.rowid AS rowid, e.entity_id, p.project_id, e.name, e.norm_name, e.kind, e.type_entity_id, e.source_key
FROM entity_rows e LEFT JOIN projects p ON p.rowid = e.project_rowid;
