-- Detached work: one row per task, `queued → running → succeeded | failed |
-- cancelled`. The task worker claims the oldest queued task in a write
-- transaction (status and attempts change together), so no task runs in two
-- places at once. `attempts` counts claims that did not finish: a task left
-- `running` by a stopped process is queued again at start, and one that was
-- interrupted too often fails instead of stopping the server forever.
-- `cancel_requested` is set on a running task; its run sees it on its next
-- progress report or poll and ends `cancelled`. `heartbeat_at` is the last
-- sign of life of a run: its claim or its latest progress report.
CREATE TABLE tasks (
  task_id          TEXT PRIMARY KEY,
  project_id       TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
  kind             TEXT NOT NULL,
  input            TEXT NOT NULL,  -- JSON
  user_id          TEXT NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  status           TEXT NOT NULL DEFAULT 'queued'
                   CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  progress_done    INTEGER NOT NULL DEFAULT 0,
  progress_total   INTEGER NOT NULL DEFAULT 0,
  result           TEXT,           -- JSON, once succeeded
  error            TEXT,           -- the message, once failed
  attempts         INTEGER NOT NULL DEFAULT 0,
  cancel_requested INTEGER NOT NULL DEFAULT 0 CHECK (cancel_requested IN (0, 1)),
  heartbeat_at     TEXT,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL
);
-- The worker's claims (oldest queued first) and its restart pass (running).
CREATE INDEX tasks_status ON tasks (status, created_at, task_id);
-- A project's tasks, and the cascade when a project is deleted.
CREATE INDEX tasks_project ON tasks (project_id, created_at);
CREATE INDEX tasks_user ON tasks (user_id);
