-- Which process counted a request. A serving process decides its rate limit
-- from memory and writes its counted requests here in small batches, tagged
-- with its own origin, so it can tell the other processes' requests (which
-- it reads back into its windows) from its own. '' marks slots taken in one
-- transaction (the daily cap of a submit key), which the batches never prune.
ALTER TABLE rate_events ADD COLUMN origin TEXT NOT NULL DEFAULT '';
