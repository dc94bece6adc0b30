-- Columns written on every reading and read by nothing: a faction's two
-- timestamps, a cell's and a symbol's creation time, a symbol's update time
-- (the Faction resource has none; a cell answers with its update time only).
-- On vuejs/core 18k factions, 11k cells and 5.6k symbols carried 1.4 MB of
-- them. And the index of factions by project (1.2 MB there): the typing
-- pass reads a project's factions through its files (`files` by project,
-- then `factions_file`), the project's counts likewise, and a listing of
-- factions walks them by id.
DROP INDEX factions_project;
ALTER TABLE factions DROP COLUMN created_at;
ALTER TABLE factions DROP COLUMN updated_at;
ALTER TABLE cells DROP COLUMN created_at;
ALTER TABLE symbols DROP COLUMN created_at;
ALTER TABLE symbols DROP COLUMN updated_at;
