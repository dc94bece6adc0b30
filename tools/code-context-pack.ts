import { z } from "zod";
import { codeContextPack } from "../src/retrieve/code/code-context-pack.js";
import { seedList } from "../src/retrieve/code/resolve-seeds.js";
import { defineAction } from "../src/core/action.js";
import { budgetField, DEFAULT_BUDGET } from "../src/retrieve/budget.js";

/** Most entries a seed list may hold. */
const MAX_SEEDS = 200;

const seeds = (what: string) =>
  z
    .string()
    .max(20_000)
    .refine((s) => seedList(s).length <= MAX_SEEDS, { error: `at most ${MAX_SEEDS} entries` })
    .optional()
    .describe(`${what}; comma- or newline-separated; steer the ranking, are never returned and cost no budget`);

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
  files: z.array(z.object({ fileId: z.string(), filepath: z.string(), reason: z.enum(["match", "referenced", "imports"]) })),
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
    "Ranks the project's code for a task: declarations whose names, headers, doc comments, paths and bodies match the task's words, " +
    "identifiers and paths, spread over references and imports (and from `seedSymbols`/`seedFiles`, already in context: they steer, " +
    "are never returned and cost nothing). Answers `declarations` (symbol, symbolId, kind, fileId, filepath, lines, body = the header only) " +
    "and `files` (fileId, filepath, reason: match, referenced or imports), cut where relevance falls off: a short pack is complete. " +
    "`used` is the exact token count of the rows and never exceeds `budget` (default 4096).",
  input,
  output: codeContextPackOutput,
  access: "viewer",
  readOnly: true,
  async run(req, ctx) {
    const budget = req.budget ?? DEFAULT_BUDGET;
    return codeContextPack(ctx.db, ctx.scope, { ...req, budget }, ctx.tools);
  },
});
