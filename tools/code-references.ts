import { z } from "zod";
import { defineAction } from "../src/core/action.js";
import { listCodeReferences } from "../src/graph/code/read-code-references.js";

/** Rows per page when `limit` is not given, and the most a page holds. */
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

const input = z.object({
  query: z.string().max(256).optional().describe("The typed prefix of an identifier; empty lists the first page alphabetically."),
  limit: z
    .number()
    .int({ error: "limit must be an integer" })
    .optional()
    .describe(`Rows in the page (default ${DEFAULT_LIMIT}; clamped to 1..${MAX_LIMIT}).`),
});

/**
 * `code_references`: declarations and usages of identifiers, prefix
 * matches first, then substring matches, each group alphabetical.
 */
export const codeReferences = defineAction({
  name: "code_references",
  family: "code",
  version: "1.0.0",
  title: "Code references",
  description:
    "Lists declarations and usages of identifiers in the project's code: names starting with the query first, then names " +
    "containing it, each group alphabetical, a name's declarations before its usages. Each row gives the file path, " +
    "lines, the stable symbolId (for a usage, the declaration it resolves to; null when unresolved or ambiguous).",
  input,
  access: "viewer",
  readOnly: true,
  run: async (args, ctx) => {
    const limit = Math.min(MAX_LIMIT, Math.max(1, args.limit ?? DEFAULT_LIMIT));
    const references = await listCodeReferences(ctx.deps, ctx.projectId, { query: args.query ?? "", limit });
    return { references };
  },
});
