import { z } from "zod";
import { defineAction } from "../src/core/action.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../src/core/paging.js";
import { listCodeReferences } from "../src/graph/code/read-code-references.js";
import { codeReferenceSchema } from "../src/graph/resources.js";

const input = z.object({
  query: z.string().max(256).optional().describe("The typed prefix of an identifier; empty lists the first page alphabetically."),
  limit: z
    .number()
    .int({ error: "limit must be an integer" })
    .optional()
    .describe(`Rows in the page (default ${DEFAULT_PAGE_SIZE}; clamped to 1..${MAX_PAGE_SIZE}).`),
});

/** The answer: one bounded page of reference rows. */
export const codeReferencesOutput = z.object({ references: z.array(codeReferenceSchema) });

/**
 * `code_references`: declarations and usages of identifiers, prefix
 * matches first, then substring matches, each group alphabetical.
 */
export const codeReferencesAction = defineAction({
  name: "code_references",
  family: "code",
  version: "1.0.0",
  title: "Code references",
  description:
    "Lists declarations and usages of identifiers in the project's code: names starting with the query first, then names " +
    "containing it, each group alphabetical, a name's declarations before its usages. Each row gives the file path, " +
    "lines, the stable symbolId (for a usage, the declaration it resolves to; null when unresolved or ambiguous).",
  input,
  output: codeReferencesOutput,
  access: "viewer",
  readOnly: true,
  run: async (args, ctx) => {
    const limit = Math.min(MAX_PAGE_SIZE, Math.max(1, args.limit ?? DEFAULT_PAGE_SIZE));
    return { references: await listCodeReferences(ctx.db, ctx.scope, { query: args.query ?? "", limit }) };
  },
});
