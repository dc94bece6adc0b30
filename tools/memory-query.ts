import { z } from "zod";
import { defineAction } from "../src/core/action.js";
import { AppError } from "../src/errors.js";
import { readCells } from "../src/graph/read-cells.js";
import { readEntities } from "../src/graph/read-entities.js";
import { readScope } from "../src/graph/read-scope.js";
import { memoryQuery } from "../src/retrieve/memory/memory-query.js";
import { synthesize } from "../src/retrieve/memory/structured-answer.js";

/** Default token budget when the caller sets none. */
export const DEFAULT_BUDGET = 4096;

const input = z.object({
  query: z.string().max(4000).optional().describe("natural-language question; when present, results are ranked and packed"),
  budget: z.number().int().min(1).max(1_000_000).optional().describe("query mode: token ceiling for the packed rows (default 4096)"),
  kind: z.enum(["cells", "entities"]).optional().describe("list mode: what to page (default cells)"),
  cursor: z.string().max(2048).optional().describe("list mode: the nextCursor of a prior call"),
  fileIds: z.array(z.string().max(64)).max(200).optional().describe("query mode: only knowledge derived from these files"),
  entities: z.array(z.string().min(1).max(200)).max(50).optional().describe("query mode: entity names seeded into the graph walk"),
  schema: z.record(z.string(), z.unknown()).optional().describe("query mode: a JSON Schema the structured answer must conform to"),
});

/**
 * `memory_query`: with `query`, the most relevant cells and entities packed
 * to `budget` tokens (and, with `schema`, a structured answer cited from the
 * same rows); without, one page of the raw collection.
 */
export const memoryQueryAction = defineAction({
  name: "memory_query",
  family: "memory",
  version: "1.0.0",
  title: "Query project memory",
  description:
    "Ranked retrieval over the project's knowledge graph. With `query`: the most relevant claims (cells) and entities, packed to `budget` tokens (default 4096), every row with its id; add `schema` (a JSON Schema) to also get `structured`, filled only from those rows with citations. Without `query`: one page of cells or entities (`kind`) and a `nextCursor` (empty on the last page).",
  input,
  access: "viewer",
  readOnly: true,
  async run(req, ctx) {
    if (req.schema && !req.query) throw new AppError("query_required_for_schema");
    const scope = await readScope(ctx.deps, ctx.projectId);
    if (!req.query) {
      const query = { cursor: req.cursor, limit: "50" };
      const kind = req.kind ?? "cells";
      const page = kind === "cells" ? await readCells(scope, query) : await readEntities(scope, query);
      return { kind, items: page.rows, nextCursor: page.nextCursor };
    }
    const answer = await memoryQuery(
      ctx.deps.db,
      scope.projectIds,
      { query: req.query, budget: req.budget ?? DEFAULT_BUDGET, fileIds: req.fileIds, entities: req.entities },
      ctx.deps.tokens,
    );
    if (!req.schema) return answer;
    const s = synthesize(req.schema, req.query, answer.cells);
    return { ...answer, structured: s.structured, citations: s.citations, ...(s.missing ? { missing: s.missing } : {}) };
  },
});
