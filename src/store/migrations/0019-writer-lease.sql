-- The writer lease: of the processes serving one database, the one holding
-- it reads queued files and writes what follows from them; the others
-- serve reads and their own small writes. A holder renews it well within
-- its term; a lease past its term may be taken by any process.
CREATE TABLE writer_lease (
  lease INTEGER PRIMARY KEY CHECK (lease = 1),
  holder TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
