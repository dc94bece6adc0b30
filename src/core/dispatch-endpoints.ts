import { z } from "zod";
import type { ActionDescription } from "./catalog.js";
import { defineEndpoint } from "./endpoint.js";
import type { AnyEndpoint } from "./endpoint.js";
import type { Service } from "./service.js";

const dispatchBody = z.looseObject({
  action: z.unknown().optional(),
  input: z.unknown().optional(),
});

const actionAnswer = z.object({ action: z.string(), result: z.unknown() });

const described = z.object({
  actions: z.array(
    z.object({
      name: z.string(),
      family: z.string(),
      version: z.string(),
      title: z.string(),
      description: z.string(),
      access: z.string(),
      tiers: z.array(z.string()),
      readOnly: z.boolean(),
      detached: z.boolean(),
      inputSchema: z.record(z.string(), z.unknown()),
      outputSchema: z.record(z.string(), z.unknown()),
    }),
  ),
});

/**
 * `POST /v1/api/actions` dispatches one action of the catalog; `GET` lists
 * the catalog. The dispatch endpoint admits the caller, then hands the named
 * action to the same pipeline with the caller known, so the action's own
 * scope, tier, level and input checks apply exactly as over MCP.
 */
export function dispatchEndpoints(service: Service): AnyEndpoint[] {
  return [
    defineEndpoint({
      name: "actions.dispatch",
      method: "POST",
      path: "/v1/api/actions",
      summary: "Dispatch one action: {action, input} → {action, result}",
      project: "none",
      access: "none",
      // The action decides who may call it; a submit key reaches the actions that list its tier.
      tiers: ["standard", "submit"],
      input: z.object({ body: dispatchBody, project: z.string().optional() }),
      output: actionAnswer,
      async run({ body, project }, ctx) {
        const action = service.action(body.action);
        const result = await service.run(action, { caller: { principal: ctx.principal }, projectId: project, input: () => body.input ?? {} });
        return { action: action.name, result };
      },
    }),
    defineEndpoint({
      name: "actions.list",
      method: "GET",
      path: "/v1/api/actions",
      summary: "The action catalog with each action's input and output JSON Schema",
      project: "none",
      access: "none",
      input: z.object({}).loose(),
      output: described,
      run: async () => ({ actions: service.catalog.describe() as ActionDescription[] }),
    }),
  ];
}
