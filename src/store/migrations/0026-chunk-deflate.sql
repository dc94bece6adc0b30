-- A chunk's bytes may be stored deflated (raw DEFLATE, RFC 1951): source
-- and prose shrink about 3x, which made the chunks the second largest
-- table of a source tree's database. `size` stays the bytes' own length
-- (what quotas and answers count). Chunks stored before stay as they are.
ALTER TABLE chunks ADD COLUMN deflated INTEGER NOT NULL DEFAULT 0;
