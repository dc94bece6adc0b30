-- How many times the file's current version was claimed for reading without
-- the reading finishing. A claim adds one, a finished reading (ready or
-- failed) and a new version set it back to 0. A file still `reading` at start
-- was interrupted: with 1 it is queued again and claimed alone, with 2 it
-- fails, so a file that stops the process cannot stop it forever.
ALTER TABLE files ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
