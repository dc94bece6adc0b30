import { z } from "zod";
import { defineAction } from "../src/core/action.js";
import { DEFAULT_PAGE_SIZE } from "../src/core/paging.js";
import { AppError } from "../src/errors.js";
import { readCells } from "../src/graph/read-cells.js";
import { readEntities } from "../src/graph/read-entities.js";
import { cellSchema, entitySchema } from "../src/graph/resources.js";
import { budgetField, DEFAULT_BUDGET } from "../src/retrieve/budget.js";
import { memoryQuery } from "../src/retrieve/memory/memory-query.js";
import { synthesize } from "../src/retrieve/memory/structured-answer.js";

const input = z.object({
  query: z.string().max(4000).optional().describe("natural-language question; when present, results are ranked and packed"),
  budget: budgetField("the tokens of an empty answer, about 20 plus the query's own").describe(
    `query mode: token ceiling of the packed answer (default ${DEFAULT_BUDGET}; at least the tokens of an empty answer, about 20 plus the query's own)`,
  ),
  kind: z.enum(["cells", "entities"]).optional().describe("list mode: what to page (default cells)"),
  cursor: z.string().max(2048).optional().describe("list mode: the nextCursor of a prior call"),
  fileIds: z.array(z.string().max(64)).max(200).optional().describe("query mode: only knowledge derived from these files"),
  entities: z.array(z.string().min(1).max(200)).max(50).optional().describe("query mode: entity names seeded into the graph walk"),
  schema: z.record(z.string(), z.unknown()).optional().describe("query mode: a JSON Schema (draft-07; at most 64 KiB and 500 properties; patterns run on RE2) the structured answer must conform to"),
});

const queryAnswer = z.object({
  query: z.string(),
  cells: z.array(z.object({ cellId: z.string(), text: z.string() })),
  entities: z.array(z.object({ entityId: z.string(), kind: z.string(), name: z.string() })),
  artifacts: z.array(z.object({ artifactId: z.string(), title: z.string() })),
  budget: z.number().int(),
  used: z.number().int(),
  /** With `schema`: the answer, the cellIds each field came from, and the fields no row spoke to. */
  structured: z.unknown().optional(),
  citations: z.record(z.string(), z.array(z.string())).optional(),
  missing: z.array(z.string()).optional(),
});

const listAnswer = z.object({
  kind: z.enum(["cells", "entities"]),
  items: z.union([z.array(cellSchema), z.array(entitySchema)]),
  nextCursor: z.string(),
});

/** Query mode packs ranked rows; list mode pages the raw collection. */
export const memoryQueryOutput = z.union([queryAnswer, listAnswer]);
export type MemoryQueryAnswer = z.infer<typeof queryAnswer>;
export type MemoryListAnswer = z.infer<typeof listAnswer>;

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
  output: memoryQueryOutput,
  access: "viewer",
  readOnly: true,
  async run(req, ctx) {
    if (req.schema && !req.query) throw new AppError("query_required_for_schema");
    if (!req.query) {
      const page = { cursor: req.cursor || undefined, limit: DEFAULT_PAGE_SIZE };
      const kind = req.kind ?? "cells";
      const read = kind === "cells" ? await readCells(ctx.db, ctx.scope, page, ctx.tools) : await readEntities(ctx.db, ctx.scope, page, ctx.tools);
      return { kind, items: read.rows, nextCursor: read.nextCursor };
    }
    const budget = req.budget ?? DEFAULT_BUDGET;
    const answer = await memoryQuery(ctx.db, ctx.scope, { query: req.query, budget, fileIds: req.fileIds, entities: req.entities }, ctx.tools);
    if (!req.schema) return answer;
    const s = synthesize(req.schema, req.query, answer.cells);
    return { ...answer, structured: s.structured, citations: s.citations, ...(s.missing ? { missing: s.missing } : {}) };
  },
});
