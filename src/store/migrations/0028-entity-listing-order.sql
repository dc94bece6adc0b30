-- The entities listing (`GET …/entities`, keyset pages by id) in index
-- order: without this index every page, even `limit=1`, read and sorted all
-- the project's entities and counted every one's live cells (134 ms a page
-- on vuejs/core's 6,400 entities; 0.1 ms with it), holding the serving
-- thread for that long on each call.
CREATE INDEX entities_project_order ON entities (project_id, entity_id);
