-- Symbols by qualified name: linking a mention like `Context.header` to its
-- declaration looks symbols up by qualified name as well as by name.
CREATE INDEX symbols_qualified ON symbols (project_id, qualified_name, retired_at);
