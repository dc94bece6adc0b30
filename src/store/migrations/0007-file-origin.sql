-- Who put a file in the project: an ingest call ('api') or the folder sync
-- ('folder'). Folder sync retires only the files it manages.
ALTER TABLE files ADD COLUMN origin TEXT NOT NULL DEFAULT 'api' CHECK (origin IN ('api', 'folder'));
-- Files of a folder's own project that predate this column came from its sync.
UPDATE files SET origin = 'folder' WHERE project_id IN (SELECT project_id FROM projects WHERE root_path IS NOT NULL);
