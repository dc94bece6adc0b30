-- A code unit whose text is exactly lines line_start..line_end of the chunk
-- its file was read from is stored with text_at_lines = 1 and an empty text,
-- and read back from that chunk (src/store/graph/faction-text.ts). So a
-- chunk stays while a file was read from it (read_chunk_id), not only while
-- a file holds it (chunk_id): a file that moved to new bytes keeps its
-- reading until it is read again. Factions stored before keep their text.
ALTER TABLE factions ADD COLUMN text_at_lines INTEGER NOT NULL DEFAULT 0;
CREATE INDEX files_read_chunk ON files (project_id, read_chunk_id);
