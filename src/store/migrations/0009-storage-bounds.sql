-- Storage bounds: chunks are collected once nothing points at them, a
-- project's stored bytes are counted against a quota, and text that leaves
-- the live reading leaves the file too.

-- When bytes last came in through PUT …/chunks/{id} (NULL: they came with an
-- ingest call). An unreferenced chunk is kept until an hour after this, so an
-- upload is never collected before the content replacement that names it.
ALTER TABLE chunks ADD COLUMN uploaded_at TEXT;

-- Covers the quota sum and the collector's scan without touching the blobs
-- (uploaded_at sits after `bytes` in the row, so reading it from the table
-- would load every blob's overflow pages).
CREATE INDEX chunks_usage ON chunks (project_id, chunk_id, size, uploaded_at, created_at);

-- Which files point at a chunk: the reference check of every release.
CREATE INDEX files_chunk ON files (project_id, chunk_id);

-- A retired file holds no bytes: it points at the empty chunk (its row keeps
-- its id and path for lineage; files.chunk_id cannot be NULL). Its former
-- chunk is collected with the other unreferenced ones.
INSERT INTO chunks (project_id, chunk_id, size, bytes, created_at)
SELECT DISTINCT project_id, 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 0, x'',
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM files WHERE status = 'retired'
ON CONFLICT DO NOTHING;
UPDATE files SET chunk_id = 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', file_size = 0
WHERE status = 'retired';

-- Retired factions and cells keep their ids and anchors, not their text.
UPDATE factions SET text = '', heading_path = '[]', content_hash = '' WHERE retired_at IS NOT NULL;
UPDATE cells SET text = '' WHERE retired_at IS NOT NULL;

-- Set by every transaction that removes text or bytes; the next collection
-- rewrites the full-text indexes without the removed rows' terms (contentless
-- tables only tombstone a deleted row until its segment is merged), truncates
-- the WAL and clears it.
CREATE TABLE purge_pending (
  id    INTEGER PRIMARY KEY CHECK (id = 1),
  since TEXT NOT NULL
);
INSERT INTO purge_pending (id, since) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
