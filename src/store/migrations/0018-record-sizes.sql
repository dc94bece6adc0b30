-- Records count against their project's storage quota like chunks do:
-- each keeps the bytes it stored (its JSON, and for a checked record the
-- row faction and cell derived from it). Rows stored before this count
-- their JSON and their cell's text.
ALTER TABLE records ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
UPDATE records SET size = length(CAST(data AS BLOB)) * (2 - spam)
  + coalesce((SELECT length(CAST(c.text AS BLOB)) FROM cells c WHERE c.cell_id = records.cell_id), 0);
-- Spam is kept a while (so a burst can be looked at), then dropped by the storage pass.
CREATE INDEX records_spam ON records (spam, created_at);
