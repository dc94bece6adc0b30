-- Artifacts: Markdown documents built from a project's cells for a stated
-- purpose (a report, a memo or a summary), each claim citing its cell.
-- `task_id` is the task that built it: a task run again after its process
-- was killed rewrites the same row, so one task leaves one artifact.
-- `citations` holds the cited cell ids in body order (JSON); an artifact is
-- stale when any of them is retired or gone. `corpus_version` is the
-- project's corpus version the cells were ranked at.
CREATE TABLE artifacts (
  artifact_id    TEXT PRIMARY KEY,
  project_id     TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  task_id        TEXT NOT NULL UNIQUE,
  kind           TEXT NOT NULL CHECK (kind IN ('report', 'memo', 'summary')),
  title          TEXT NOT NULL,
  purpose        TEXT NOT NULL,
  body           TEXT NOT NULL,
  citations      TEXT NOT NULL,
  corpus_version INTEGER NOT NULL,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL
);
CREATE INDEX artifacts_project ON artifacts (project_id, artifact_id);
CREATE INDEX artifacts_project_updated ON artifacts (project_id, updated_at);
