import { z } from "zod";
import { codeContextPack } from "../src/retrieve/code/code-context-pack.js";
import { seedList } from "../src/retrieve/code/resolve-seeds.js";
import { defineAction } from "../src/core/action.js";
import { budgetField, DEFAULT_BUDGET } from "../src/retrieve/budget.js";
import { indexingNote, indexingSchema } from "../src/retrieve/indexing.js";

/** Most entries a seed list may hold. */
const MAX_SEEDS = 200;

const seeds = (what: string) =>
  z
    .string()
    .max(20_000)
    .refine((s) => seedList(s).length <= MAX_SEEDS, { error: `at most ${MAX_SEEDS} entries` })
    .optional()
    .describe(
      `${what}; comma- or newline-separated, at most ${MAX_SEEDS} entries and 20,000 characters; they steer the ranking, are never returned and cost no budget`,
    );

const input = z.object({
  task: z.string().min(1).max(32_000).describe("The coding task in prose (an issue, a commit message, a request); code, paths and tracebacks help."),
  seedSymbols: seeds("Declarations already in context: stable ids (sym_…), qualified names (Class.method) or names"),
  seedFiles: seeds("File paths already open (project paths, or their ends)"),
  budget: budgetField("8, the cost of an empty pack"),
});

const packedDeclaration = z.object({
  symbol: z.string(),
  symbolId: z.string(),
  kind: z.string(),
  fileId: z.string(),
  filepath: z.string(),
  lines: z.tuple([z.number().int(), z.number().int()]),
  /** The header only, never a full body. */
  body: z.string(),
});

/** The answer: declarations (headers) and files, packed to the budget. */
export const codeContextPackOutput = z.object({
  budget: z.number().int(),
  used: z.number().int(),
  declarations: z.array(packedDeclaration),
  files: z.array(
    z.object({
      fileId: z.string(),
      filepath: z.string(),
      reason: z.enum(["match", "referenced", "imports", "test", "duplicate"]),
      /** For a `duplicate`: the file kept in the copy's place. */
      duplicateOf: z.string().optional(),
    }),
  ),
  indexing: indexingSchema,
});

/**
 * `code_context_pack`: the declarations (headers only) and files a coding
 * task most needs, ranked for precision and packed to `budget` tokens.
 */
export const codeContextPackAction = defineAction({
  name: "code_context_pack",
  family: "code",
  version: "1.0.0",
  title: "Code context pack",
  description:
    "Picks the code a coding task needs, from the whole project: the declarations (headers only: signature and doc line, never " +
    "bodies) and files most relevant to `task`, ranked and packed to `budget` tokens. Use it first when starting a change, a bug " +
    "or a question about how something works; then read the files it names. Use code_references instead to find every " +
    "declaration and usage of a name you already know, and memory_query for documents, notes and other prose. Write `task` as " +
    "you would to a colleague, with the identifiers, paths, error messages or stack traces you have: words are matched over " +
    "names, qualified names, headers, doc comments, paths and bodies, then spread over references and imports. Name what you " +
    "already hold in `seedSymbols` (sym_ ids, Class.method or names) and `seedFiles` (paths or their ends): they steer the " +
    "ranking toward their neighbours, are never returned and cost nothing. Answers `declarations` [{symbol, symbolId, kind, " +
    "fileId, filepath, lines, body}] and `files` [{fileId, filepath, reason: match | referenced | imports | test | duplicate, " +
    "duplicateOf?}] (test: tests of packed declarations; duplicate: a copy of the file named in duplicateOf), cut where " +
    "relevance falls off, so a short pack is a complete answer, not a truncated one; `used` (exact tokens) never exceeds " +
    "`budget` (default 4096, at least 8). " +
    'Good call: {"task": "Retries in fetchWithBackoff ignore the Retry-After header; honour it", "seedFiles": "src/http/client.ts"}.',
  input,
  output: codeContextPackOutput,
  access: "viewer",
  readOnly: true,
  async run(req, ctx) {
    const budget = req.budget ?? DEFAULT_BUDGET;
    const pack = await codeContextPack(ctx.tools.queries, ctx.scope, { ...req, budget }, ctx.tools);
    return { ...pack, ...(await indexingNote(ctx.db, ctx.scope, ctx.tools)) };
  },
  links: (pack) => [
    ...pack.declarations.map((d) => ({ kind: "file" as const, id: d.fileId, name: d.filepath })),
    ...pack.files.map((f) => ({ kind: "file" as const, id: f.fileId, name: f.filepath })),
  ],
});
