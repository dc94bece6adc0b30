-- Whether the ingest call named the file with includeSecret. The credential
-- scan runs again on what the readers make of the bytes, so the caller's
-- consent has to outlive the accept step: a file stored with 1 is read even
-- when its text looks like a credential; content replacement keeps the flag,
-- a new ingest of the path sets it again.
ALTER TABLE files ADD COLUMN include_secret INTEGER NOT NULL DEFAULT 0 CHECK (include_secret IN (0, 1));
