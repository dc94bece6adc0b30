import { z } from "zod";
import { defineAction } from "../src/core/action.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../src/core/paging.js";
import { listCodeReferences } from "../src/graph/code/read-code-references.js";
import { codeReferenceSchema } from "../src/graph/resources.js";
import { indexingNote, indexingSchema } from "../src/retrieve/indexing.js";

const input = z.object({
  query: z
    .string()
    .max(256)
    .optional()
    .describe(
      "What to look up: the start of an identifier (`getUs` finds getUser, getUsers …; case-insensitive), a stable symbol id " +
        "(`sym_…`, as code_context_pack and earlier rows give it) or a qualified name (`Context.header`): the last two list that " +
        "one declaration and the usages that resolve to it. Empty lists everything alphabetically. At most 256 characters.",
    ),
  limit: z
    .number()
    .int({ error: "limit must be an integer" })
    // The page's real bounds, enforced as advertised (zod's own would be the safe-integer range).
    .min(1, { error: "at least 1" })
    .max(MAX_PAGE_SIZE, { error: `at most ${MAX_PAGE_SIZE}` })
    .optional()
    .describe(`Rows in the page, 1..${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).`),
});

/** One row: the listing's row and the file it is in. */
const referenceRow = codeReferenceSchema.extend({ fileId: z.string() });

/** The answer: one bounded page of reference rows, how many match in all, and whether the page left some out. */
export const codeReferencesOutput = z.object({
  references: z.array(referenceRow),
  total: z.number().int().min(0),
  more: z.boolean(),
  indexing: indexingSchema,
});

/**
 * `code_references`: declarations and usages of identifiers, prefix
 * matches first, then substring matches, each group alphabetical; or one
 * symbol's declaration and usages, by stable id or qualified name.
 */
export const codeReferencesAction = defineAction({
  name: "code_references",
  family: "code",
  version: "1.0.0",
  title: "Code references",
  description:
    "Finds where an identifier is declared and used in the project's code (every language indexed). Use it when you know a name " +
    "(or its start) and need its definition or call sites; use code_context_pack when you have a task and need to know which code " +
    "matters, and memory_query for documents and prose. `query` is an identifier prefix (names starting with it first, then names " +
    "containing it, each alphabetical, a name's declarations before its usages), or a symbolId (`sym_…`) or qualified name " +
    "(`Context.header`) for exactly that declaration and the usages resolved to it. Each row: symbol, kind (declaration or usage), " +
    "filepath, fileId, lines [start, end] (a declaration's whole span, a usage's identifier), symbolId (for a usage, the declaration " +
    "it resolves to; null when unresolved, with ambiguous: true when several match). `total` counts every matching row and `more` " +
    "says the page (`limit`, default 50, at most 200) left some out: narrow the query rather than raising the limit. " +
    'Good calls: {"query": "parseConf"}, {"query": "Session.send"}, {"query": "<a symbolId from an earlier answer>", "limit": 200}.',
  input,
  output: codeReferencesOutput,
  access: "viewer",
  readOnly: true,
  run: async (args, ctx) => {
    const page = await listCodeReferences(ctx.db, ctx.scope, { query: args.query ?? "", limit: args.limit ?? DEFAULT_PAGE_SIZE });
    return { ...page, ...(await indexingNote(ctx.db, ctx.scope, ctx.tools)) };
  },
  links: (page) => page.references.map((r) => ({ kind: "file" as const, id: r.fileId, name: r.filepath })),
});
