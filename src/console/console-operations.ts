import { z } from "zod";
import { readSchemaWithPending } from "../categories/schema-edits.js";
import { categorySchemaShape, schemaFieldShape } from "../categories/resources.js";
import type { Operation } from "../core/endpoint.js";

/**
 * Reads the console needs that no REST endpoint serves, declared as
 * operations so they run through the same pipeline (session principal,
 * scope, tier, level, validation) — not routes: nothing but the console
 * calls them.
 *
 * `console.type-schema`: a type's schema and the schema change reading
 * proposed for it, if one waits — what a person compares before approving.
 */
export const consoleOperations: Operation[] = [
  {
    name: "console.type-schema",
    access: "viewer",
    auth: ["session"],
    input: z.object({ params: z.object({ projectId: z.string(), entityId: z.string().max(64) }) }),
    output: z.object({
      categorySchema: categorySchemaShape,
      pending: z.object({ fields: z.array(schemaFieldShape), baseVersion: z.number().int(), evidence: z.array(z.string()) }).nullable(),
    }),
    run: (input, ctx) => readSchemaWithPending(ctx.db, ctx.scope, (input as { params: { entityId: string } }).params.entityId),
  },
];
