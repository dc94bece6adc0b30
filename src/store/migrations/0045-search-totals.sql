-- Each full-text table's totals record (`<table>_data` id 1: its row count
-- and tokens per column, which bm25() reads) is rewritten from the table's
-- size rows where the two disagree: a contentless delete leaves the record
-- as it was, and stores written before deletes took the deleted rows out
-- kept every replaced cell, file and declaration counted. The work is code
-- (`CODE_STEPS` in src/store/migrate.ts): the record is a varint blob.
SELECT 1;
