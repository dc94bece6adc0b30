-- Cell-entity links by rowid: (cells.rowid, entities.rowid) instead of two
-- 26-character text ids, in the table and again in its entity index (2.5 MB
-- of vuejs/core's 38 MB for 19.6k links). The public ids are unchanged; the
-- store's reads join `cells` and `entities` to turn ids into rowids
-- (src/store/graph/cell-entity-keys.ts). `cells` rowids are stable (the
-- full-text index keys cells by them) and so are `entities` rowids: nothing
-- may VACUUM the database. A rowid is no foreign key, so triggers delete a
-- deleted cell's or entity's links, as the cascades did.
CREATE TABLE cell_entity_rowids (
  cell_rowid   INTEGER NOT NULL,
  entity_rowid INTEGER NOT NULL,
  PRIMARY KEY (cell_rowid, entity_rowid)
) WITHOUT ROWID;
INSERT INTO cell_entity_rowids (cell_rowid, entity_rowid)
SELECT c.rowid, e.rowid FROM cell_entities ce
JOIN cells c ON c.cell_id = ce.cell_id
JOIN entities e ON e.entity_id = ce.entity_id;
DROP TABLE cell_entities;
ALTER TABLE cell_entity_rowids RENAME TO cell_entities;
CREATE INDEX cell_entities_entity ON cell_entities (entity_rowid);

CREATE TRIGGER cell_entities_cell_deleted AFTER DELETE ON cells BEGIN
  DELETE FROM cell_entities WHERE cell_rowid = old.rowid;
END;
CREATE TRIGGER cell_entities_entity_deleted AFTER DELETE ON entities BEGIN
  DELETE FROM cell_entities WHERE entity_rowid = old.rowid;
END;
