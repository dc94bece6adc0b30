-- Each entity's count of live cells, kept by triggers as links and cells
-- come and go. The entities read lists only entities backing a live cell
-- and gives each its count; counted at read time, a page whose first
-- entity is a city named in every row of 25 large tables joined 150k links
-- to their cells on every read (about 120 ms on the serving thread, for
-- `GET …/entities?limit=1`). Kept here, a page reads one row per entity.
--
-- A count changes when a link to a live cell is added or removed, when a
-- linked cell is retired or brought back, and when a live cell is deleted
-- (its links go with it: the cell's trigger counts them down first, and
-- the link's own trigger then finds no live cell and does nothing).
CREATE TABLE entity_cell_counts (
  entity_rowid INTEGER PRIMARY KEY,
  live         INTEGER NOT NULL
);
INSERT INTO entity_cell_counts (entity_rowid, live)
SELECT ce.entity_rowid, count(*) FROM cell_entities ce JOIN cell_rows c ON c.rowid = ce.cell_rowid
WHERE c.retired_at IS NULL GROUP BY ce.entity_rowid;

CREATE TRIGGER entity_cell_counts_link_added AFTER INSERT ON cell_entities
WHEN EXISTS (SELECT 1 FROM cell_rows WHERE rowid = new.cell_rowid AND retired_at IS NULL) BEGIN
  INSERT INTO entity_cell_counts (entity_rowid, live) VALUES (new.entity_rowid, 1)
  ON CONFLICT (entity_rowid) DO UPDATE SET live = live + 1;
END;

CREATE TRIGGER entity_cell_counts_link_removed AFTER DELETE ON cell_entities
WHEN EXISTS (SELECT 1 FROM cell_rows WHERE rowid = old.cell_rowid AND retired_at IS NULL) BEGIN
  UPDATE entity_cell_counts SET live = live - 1 WHERE entity_rowid = old.entity_rowid;
END;

CREATE TRIGGER entity_cell_counts_cell_retired AFTER UPDATE OF retired_at ON cell_rows
WHEN old.retired_at IS NULL AND new.retired_at IS NOT NULL BEGIN
  UPDATE entity_cell_counts SET live = live - 1
  WHERE entity_rowid IN (SELECT entity_rowid FROM cell_entities WHERE cell_rowid = new.rowid);
END;

CREATE TRIGGER entity_cell_counts_cell_restored AFTER UPDATE OF retired_at ON cell_rows
WHEN old.retired_at IS NOT NULL AND new.retired_at IS NULL BEGIN
  INSERT INTO entity_cell_counts (entity_rowid, live)
  SELECT entity_rowid, 1 FROM cell_entities WHERE cell_rowid = new.rowid AND true
  ON CONFLICT (entity_rowid) DO UPDATE SET live = live + 1;
END;

DROP TRIGGER cell_entities_cell_deleted;
CREATE TRIGGER cell_entities_cell_deleted AFTER DELETE ON cell_rows BEGIN
  UPDATE entity_cell_counts SET live = live - 1
  WHERE old.retired_at IS NULL AND entity_rowid IN (SELECT entity_rowid FROM cell_entities WHERE cell_rowid = old.rowid);
  DELETE FROM cell_entities WHERE cell_rowid = old.rowid;
END;

CREATE TRIGGER entity_cell_counts_entity_deleted AFTER DELETE ON entity_rows BEGIN
  DELETE FROM entity_cell_counts WHERE entity_rowid = old.rowid;
END;
