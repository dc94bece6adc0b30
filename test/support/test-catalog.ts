import { z } from "zod";
import { defineAction } from "../../src/core/action.js";
import type { AnyAction } from "../../src/core/action.js";
import { defineEndpoint } from "../../src/core/endpoint.js";
import type { AnyEndpoint } from "../../src/core/endpoint.js";

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
    output: z.object({ echoed: z.string().nullable(), projectId: z.string(), level: z.string() }),
    access: "viewer",
    readOnly: true,
    run: async (input, ctx) => ({ echoed: input.text ?? null, projectId: ctx.scope.projectId, level: ctx.scope.level }),
  }),
  defineAction({
    name: "test_write",
    family: "test",
    version: "1.0.0",
    title: "Write",
    description: "Stands for an action that needs editor access.",
    input: z.object({ value: z.number() }),
    output: z.object({ wrote: z.number() }),
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
    output: z.object({ boundTypeId: z.string().nullable() }),
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
    output: z.object({}),
    access: "viewer",
    readOnly: true,
    run: async () => {
      throw new Error("SQLITE_ERROR: near \"SELEC\": syntax error at /secret/path.ts:12");
    },
  }),
];

/** REST endpoints that exist only in tests: a write endpoint and a session endpoint. */
export const testEndpoints: readonly AnyEndpoint[] = [
  defineEndpoint({
    name: "test.things.put",
    method: "PUT",
    path: "/v1/projects/:projectId/things",
    summary: "Stands for a write endpoint",
    project: "path",
    access: "editor",
    body: "none",
    input: z.object({ params: z.object({ projectId: z.string() }) }),
    output: z.object({ ok: z.literal(true) }),
    run: async () => ({ ok: true as const }),
  }),
  defineEndpoint({
    name: "test.session-things.list",
    method: "GET",
    path: "/v1/projects/:projectId/session-things",
    summary: "Stands for a session endpoint",
    project: "path",
    access: "viewer",
    auth: ["session"],
    input: z.object({ params: z.object({ projectId: z.string() }) }),
    output: z.array(z.unknown()),
    run: async () => [],
  }),
];
