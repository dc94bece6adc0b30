-- The distinct folded names of a project's references keyed by the
-- project's rowid, not its 26-character id, which led every row of this
-- clustered table (5.5k names on vuejs/core: 0.23 MB, about half of it the
-- id). Reads bind the project id and turn it into the rowid in a subquery
-- (src/store/code/code-references.ts). A rowid is no foreign key, so a
-- deleted project's names go by trigger, as the cascade did; nothing may
-- VACUUM the database, so projects' rowids do not change.
CREATE TABLE code_names_by_rowid (
  project_rowid INTEGER NOT NULL,
  folded        TEXT NOT NULL,
  PRIMARY KEY (project_rowid, folded)
) WITHOUT ROWID;
INSERT INTO code_names_by_rowid (project_rowid, folded)
SELECT p.rowid, n.folded FROM code_names n JOIN projects p ON p.project_id = n.project_id;
DROP TABLE code_names;
ALTER TABLE code_names_by_rowid RENAME TO code_names;

CREATE TRIGGER code_names_project_deleted AFTER DELETE ON projects BEGIN
  DELETE FROM code_names WHERE project_rowid = old.rowid;
END;
