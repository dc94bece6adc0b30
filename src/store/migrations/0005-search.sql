-- Full-text indexes for retrieval. Contentless: rowids point at cells.rowid
-- and files.rowid; rows are written per reading, not by triggers.

CREATE VIRTUAL TABLE cells_fts USING fts5(
  text, context,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE VIRTUAL TABLE files_fts USING fts5(
  title, body,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
