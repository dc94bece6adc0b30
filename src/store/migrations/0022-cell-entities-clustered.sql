-- Cell-entity links as a WITHOUT ROWID table: the key (cell_id, entity_id) is
-- the table itself, where a rowid table kept every pair twice (the rows and
-- the key's index, 2.6 MB of vuejs/core's links). The entity index is as it was
-- (it carries the key: entity_id, cell_id).
CREATE TABLE cell_entities_clustered (
  cell_id   TEXT NOT NULL REFERENCES cells (cell_id) ON DELETE CASCADE,
  entity_id TEXT NOT NULL REFERENCES entities (entity_id) ON DELETE CASCADE,
  PRIMARY KEY (cell_id, entity_id)
) WITHOUT ROWID;
INSERT INTO cell_entities_clustered (cell_id, entity_id) SELECT cell_id, entity_id FROM cell_entities;
DROP TABLE cell_entities;
ALTER TABLE cell_entities_clustered RENAME TO cell_entities;
CREATE INDEX cell_entities_entity ON cell_entities (entity_id);
