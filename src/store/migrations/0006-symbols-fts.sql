-- Full-text index of declarations for code retrieval, one row per live symbol
-- (rowid = symbols.rowid), with a BM25 weight per field: the names, the header,
-- the doc comment, the file path and the declaration's own text. Identifiers
-- are indexed whole and split into their words. Rows are rewritten with the
-- file's symbols in the reading's transaction, not by triggers.

CREATE VIRTUAL TABLE symbols_fts USING fts5(
  name, signature, doc, path, body,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);

-- Symbols read before this index existed: indexed as stored (identifiers not
-- split) until their file is read again.
INSERT INTO symbols_fts (rowid, name, signature, doc, path, body)
SELECT s.rowid, s.name || ' ' || s.qualified_name, s.signature, coalesce(s.doc, ''), fi.path, coalesce(fa.text, '')
FROM symbols s
JOIN files fi ON fi.file_id = s.file_id
LEFT JOIN factions fa ON fa.faction_id = s.faction_id
WHERE s.retired_at IS NULL;
