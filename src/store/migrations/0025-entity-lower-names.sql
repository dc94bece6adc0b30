-- Entities by their lower-cased name: memory_query looks up the entities a
-- question names by normalized or lower-cased name, and without this index
-- the second half of that lookup read every entity of the project (6.5 ms
-- a question on vuejs/core's 6,500 entities).
CREATE INDEX entities_lower_name ON entities (project_id, lower(name));
