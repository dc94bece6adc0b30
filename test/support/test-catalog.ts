import { z } from "zod";
import { defineAction } from "../../src/core/action.js";
import type { AnyAction } from "../../src/core/action.js";

/**
 * Actions that exist only in tests, to exercise dispatch, access and
 * validation independently of the product's catalog.
 */
export const testActions: readonly AnyAction[] = [
  defineAction({
    name: "test_echo",
    family: "test",
    version: "1.0.0",
    title: "Echo",
    description: "Returns its input and the project it ran in.",
    input: z.object({ text: z.string().max(100).optional() }),
    access: "viewer",
    readOnly: true,
    run: async (input, ctx) => ({ echoed: input.text ?? null, projectId: ctx.projectId, level: ctx.level }),
  }),
  defineAction({
    name: "test_write",
    family: "test",
    version: "1.0.0",
    title: "Write",
    description: "Stands for an action that needs editor access.",
    input: z.object({ value: z.number() }),
    access: "editor",
    readOnly: false,
    run: async (input) => ({ wrote: input.value }),
  }),
  defineAction({
    name: "test_submit",
    family: "test",
    version: "1.0.0",
    title: "Submit",
    description: "Stands for an action a submit-tier key may call.",
    input: z.object({}),
    access: "viewer",
    tiers: ["standard", "submit"],
    readOnly: false,
    run: async (_input, ctx) => ({ boundTypeId: ctx.principal.boundTypeId }),
  }),
  defineAction({
    name: "test_fail",
    family: "test",
    version: "1.0.0",
    title: "Fail",
    description: "Throws an unexpected error, to check that nothing leaks.",
    input: z.object({}),
    access: "viewer",
    readOnly: true,
    run: async () => {
      throw new Error("SQLITE_ERROR: near \"SELEC\": syntax error at /secret/path.ts:12");
    },
  }),
];
