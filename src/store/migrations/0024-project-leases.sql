-- Every project has its ingestion lease from the start (createProject
-- inserts it with the project), so reading the lease status never writes.
-- Projects made before have theirs added here; the id keeps the shape of
-- the others (`lse_` and 22 characters of the base62 alphabet).
INSERT INTO leases (lease_id, project_id, last_intent, created_at, updated_at)
SELECT 'lse_' || substr(hex(randomblob(16)), 1, 22), p.project_id, NULL, p.created_at, p.created_at
FROM projects p
WHERE NOT EXISTS (SELECT 1 FROM leases l WHERE l.project_id = p.project_id);
