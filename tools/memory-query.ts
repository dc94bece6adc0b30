import { z } from "zod";
import { defineAction } from "../src/core/action.js";
import type { AnswerLink } from "../src/core/action.js";
import { DEFAULT_PAGE_SIZE } from "../src/core/paging.js";
import { AppError } from "../src/errors.js";
import { readCells } from "../src/graph/read-cells.js";
import { readEntities } from "../src/graph/read-entities.js";
import { cellSchema, entitySchema, sourceLocationSchema } from "../src/graph/resources.js";
import { budgetField, DEFAULT_BUDGET, MAX_BUDGET } from "../src/retrieve/budget.js";
import { indexingNote, indexingSchema } from "../src/retrieve/indexing.js";
import { memoryQuery } from "../src/retrieve/memory/memory-query.js";
import { answerStructured } from "../src/retrieve/memory/structured-answer.js";

const input = z.object({
  query: z
    .string()
    .max(4000)
    .optional()
    .describe("The question, in natural language (at most 4,000 characters); when present, rows are ranked for it and packed to `budget`"),
  budget: budgetField("the tokens of an empty answer, 17 plus about the query's own").describe(
    `query mode: token ceiling of the packed answer (default ${DEFAULT_BUDGET}, at most ${MAX_BUDGET}; at least the tokens of an empty answer, 17 plus about the query's own)`,
  ),
  kind: z.enum(["cells", "entities"]).optional().describe("list mode (no `query`): what to page, cells or entities (default cells)"),
  cursor: z.string().max(2048).optional().describe("list mode: the nextCursor of the previous page"),
  fileIds: z
    .array(z.string().max(64))
    .max(200)
    .optional()
    .describe("query mode: only knowledge derived from these files (at most 200 fileIds)"),
  entities: z
    .array(z.string().min(1).max(200))
    .max(50)
    .optional()
    .describe("query mode: entity names to start the graph walk from (at most 50 names of 1–200 characters)"),
  schema: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "query mode: a JSON Schema (draft-07) for a structured answer filled only from the returned rows, each field cited; at most 64 KiB, 500 properties, 16 levels deep, 32 patterns (run on RE2); $ref only within the schema",
    ),
});

const queryAnswer = z.object({
  query: z.string(),
  /** Each cell with its source: file id, project path and its span's keys that apply. */
  cells: z.array(z.object({ cellId: z.string(), text: z.string(), fileId: z.string(), filepath: z.string(), ...sourceLocationSchema.shape })),
  /** A symbol also names the project path of the file declaring it. */
  entities: z.array(z.object({ entityId: z.string(), kind: z.string(), name: z.string(), filepath: z.string().optional() })),
  artifacts: z.array(z.object({ artifactId: z.string(), title: z.string() })),
  /** Code declarations answering the question, each with its source; members of a type-like one listed with it. */
  declarations: z.array(
    z.object({
      symbolId: z.string(),
      name: z.string(),
      kind: z.string(),
      container: z.string().optional(),
      signature: z.string(),
      doc: z.string().optional(),
      fileId: z.string(),
      filepath: z.string(),
      lineStart: z.number().int(),
      lineEnd: z.number().int(),
      members: z.array(z.string()).optional(),
    }),
  ),
  /** The files to open for the question, best first (the file ranking code_context_pack lists its files by). */
  files: z.array(z.object({ fileId: z.string(), filepath: z.string() })),
  budget: z.number().int(),
  used: z.number().int(),
  indexing: indexingSchema,
  /** With `schema`: the answer, the cellIds each field came from, and the fields no row spoke to. */
  structured: z.unknown().optional(),
  citations: z.record(z.string(), z.array(z.string())).optional(),
  missing: z.array(z.string()).optional(),
  /** With `schema`: which path filled `structured`, the client's model (MCP sampling, checked) or extraction from the rows. */
  structuredBy: z.enum(["sampling", "extractive"]).optional(),
});

const listAnswer = z.object({
  kind: z.enum(["cells", "entities"]),
  items: z.union([z.array(cellSchema), z.array(entitySchema)]),
  nextCursor: z.string(),
  indexing: indexingSchema,
});

/** Query mode packs ranked rows; list mode pages the raw collection. */
export const memoryQueryOutput = z.union([queryAnswer, listAnswer]);
export type MemoryQueryAnswer = z.infer<typeof queryAnswer>;
export type MemoryListAnswer = z.infer<typeof listAnswer>;

/**
 * What an answer points at: its entities, artifacts and cells (a cell's
 * resource names its files; list-mode cells carry their fileIds, linked
 * too). Links carry no text: the answer already does.
 */
function memoryLinks(answer: z.output<typeof memoryQueryOutput>): AnswerLink[] {
  if ("items" in answer) {
    if (answer.kind === "entities") return (answer.items as MemoryEntity[]).map((e) => ({ kind: "entity", id: e.entityId, name: e.name }));
    return (answer.items as MemoryCell[]).flatMap((c): AnswerLink[] => [
      { kind: "cell", id: c.cellId, name: c.cellId },
      ...c.fileIds.map((fileId): AnswerLink => ({ kind: "file", id: fileId, name: fileId })),
    ]);
  }
  return [
    ...answer.entities.map((e): AnswerLink => ({ kind: "entity", id: e.entityId, name: e.name, description: e.kind })),
    ...answer.artifacts.map((a): AnswerLink => ({ kind: "artifact", id: a.artifactId, name: a.title })),
    ...answer.cells.map((c): AnswerLink => ({ kind: "cell", id: c.cellId, name: c.cellId })),
    ...answer.files.map((f): AnswerLink => ({ kind: "file", id: f.fileId, name: f.filepath })),
  ];
}

type MemoryCell = z.output<typeof cellSchema>;
type MemoryEntity = z.output<typeof entitySchema>;

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
    "Answers a question from what the project knows: its documents, notes, tables, configs, records and code comments, read into " +
    "claims (cells) and the entities they name. Use it for anything said in prose — decisions, designs, how-tos, people, " +
    "incidents, definitions — and before writing about the project; use code_context_pack to find the code a change needs and " +
    "code_references to find where an identifier is declared or used. With `query`: the most relevant cells ({cellId, text, " +
    "fileId, filepath} and the span they come from: lineStart/lineEnd, pdfPageStart/pdfPageEnd or audioStartMs/videoStartMs), " +
    "the entities the query names and related ones ({entityId, kind, name}; a symbol also its filepath), matching artifacts " +
    "({artifactId, title}) and, for code, the declarations answering it ({symbolId, name, kind, container, signature, doc, fileId, " +
    "filepath, lineStart, lineEnd, members}) and the files to open, best first ({fileId, filepath}), packed to `budget` tokens (default 4096; `used` is exact and never exceeds it); ask in full sentences with the names you " +
    "know, narrow with `fileIds` or seed `entities`. Add `schema` (a JSON Schema) to also get `structured`, filled only from " +
    "the returned rows, with `citations` (JSON Pointer → cellIds) and `missing` (required fields no row answered). Cite the " +
    "cellIds you use. While files are still being read the answer carries indexing {ready, total}: it may be partial. Without `query`: one page of raw cells or entities (`kind`) with `nextCursor` (empty on the last page). " +
    'Good calls: {"query": "Why did we move billing off the nightly batch?"}, ' +
    '{"query": "Who owns the payments service and what is its on-call rota?", "schema": {"type": "object", "properties": ' +
    '{"owner": {"type": "string"}, "rota": {"type": "string"}}}}.',
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
      return { kind, items: read.rows, nextCursor: read.nextCursor, ...(await indexingNote(ctx.db, ctx.scope, ctx.tools)) };
    }
    const budget = req.budget ?? DEFAULT_BUDGET;
    const found = await memoryQuery(ctx.tools.queries, ctx.scope, { query: req.query, budget, fileIds: req.fileIds, entities: req.entities }, ctx.tools);
    const answer = { ...found, ...(await indexingNote(ctx.db, ctx.scope, ctx.tools)) };
    if (!req.schema) return answer;
    const s = await answerStructured(req.schema, req.query, answer.cells, ctx.sampler);
    return { ...answer, structured: s.structured, citations: s.citations, ...(s.missing ? { missing: s.missing } : {}), structuredBy: s.source };
  },
  links: memoryLinks,
});
