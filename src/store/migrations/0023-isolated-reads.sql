-- How many times the file's current version began a reading alone (in a
-- reader process of its own, after a reading among others was interrupted)
-- without it finishing. Counted, and committed, as that reading begins, so
-- a server killed during it cannot lose the count; a file still `reading`
-- at start with 2 was interrupted twice while read alone and fails. A
-- finished reading, a new version and a claim given back set it back.
ALTER TABLE files ADD COLUMN isolated_reads INTEGER NOT NULL DEFAULT 0;
