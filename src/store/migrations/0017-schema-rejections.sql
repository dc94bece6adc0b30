-- Fields a person rejected when a reading proposed them for a type: each is
-- kept by its fingerprint (the field's name, lowercased), so a rejected
-- change is not proposed again by the next reading, whatever else changed
-- meanwhile. A field the person adds by hand is theirs to add.
CREATE TABLE schema_rejections (
  entity_id   TEXT NOT NULL REFERENCES entities (entity_id) ON DELETE CASCADE,
  project_id  TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  fingerprint TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  PRIMARY KEY (entity_id, fingerprint)
) WITHOUT ROWID;
