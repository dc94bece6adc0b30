import { z } from "zod";
import { hashSecret } from "../access/api-key-format.js";
import { createApiKey } from "../access/create-api-key.js";
import type { Principal } from "../access/principal.js";
import { AppError } from "../errors.js";
import { getApiKey, listApiKeys, revokeApiKey } from "../store/access/api-keys.js";
import type { ApiKeyRecord } from "../store/access/api-keys.js";
import { ACCESS_LEVELS, projectsOfUser } from "../store/access/memberships.js";
import { deleteSession } from "../store/access/sessions.js";
import { defineEndpoint } from "./endpoint.js";
import type { AnyEndpoint } from "./endpoint.js";

/** A key as listed: never its hash, never its plaintext. */
export const keySchema = z.object({
  keyId: z.string(),
  name: z.string(),
  prefix: z.string(),
  tier: z.enum(["standard", "submit"]),
  projectId: z.string().nullable(),
  boundTypeId: z.string().nullable(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});
export type KeyView = z.infer<typeof keySchema>;

const keyView = ({ hash: _hash, userId: _userId, ...key }: Omit<ApiKeyRecord, "hash"> & { hash?: string }): KeyView => key;

/** A bound caller reaches only keys bound to its own project; an unbound one reaches all of its user's. */
const withinBinding = (principal: Principal, key: ApiKeyRecord): boolean =>
  principal.boundProjectId === null || key.projectId === principal.boundProjectId;

const projectParams = z.object({ projectId: z.string() });
const bare = (message: string) => ({ message, params: { bare: true } });

/**
 * The account side a person reaches from the console (and any session
 * holder over REST): the projects they belong to, ending a session
 * (sign-out), and the keys of their account — "minted in the product's
 * app", so minting, listing and revoking take a session, never a key, and
 * the owner level of the project they are working in (owners manage keys).
 * Keys are account-level: the list is the caller's own keys, and a key is
 * revoked only by the user it belongs to. A caller whose key is bound to a
 * project (and every session that key minted) stays inside it: it lists,
 * revokes and ends only what is bound to that project, and mints only keys
 * bound there with its own tier.
 */
export const accountEndpoints: AnyEndpoint[] = [
  defineEndpoint({
    name: "projects.list",
    method: "GET",
    path: "/v1/projects",
    summary: "The projects the caller is a member of, with their level in each",
    project: "none",
    access: "none",
    auth: ["key", "session"],
    input: z.object({}).loose(),
    output: z.object({
      projects: z.array(z.object({ projectId: z.string(), name: z.string(), parentId: z.string().nullable(), level: z.enum(ACCESS_LEVELS) })),
    }),
    async run(_input, ctx) {
      const all = await projectsOfUser(ctx.db, ctx.principal.userId);
      const bound = ctx.principal.boundProjectId;
      return { projects: bound ? all.filter((p) => p.projectId === bound) : all };
    },
  }),
  defineEndpoint({
    name: "sessions.end",
    method: "POST",
    path: "/v1/sessions/end",
    summary: "End a session of the caller's (sign-out): the token stops working at once",
    project: "none",
    access: "none",
    auth: ["session"],
    input: z.object({ body: z.object({ sessionToken: z.string().min(1).max(512) }) }),
    output: z.object({ ended: z.boolean() }),
    run: async ({ body }, ctx) => ({
      ended: await deleteSession(ctx.db, hashSecret(body.sessionToken), ctx.principal.userId, ctx.principal.boundProjectId),
    }),
  }),
  defineEndpoint({
    name: "keys.list",
    method: "GET",
    path: "/v1/projects/:projectId/keys",
    summary: "The caller's API keys, newest first (owner of the project, session)",
    project: "path",
    access: "owner",
    auth: ["session"],
    input: z.object({ params: projectParams }),
    output: z.object({ keys: z.array(keySchema) }),
    run: async (_input, ctx) => ({ keys: (await listApiKeys(ctx.db, ctx.principal.userId, ctx.principal.boundProjectId)).map(keyView) }),
  }),
  defineEndpoint({
    name: "keys.create",
    method: "POST",
    path: "/v1/projects/:projectId/keys",
    summary: "Mint an API key for the caller; its plaintext is in this answer only (owner of the project, session)",
    project: "path",
    access: "owner",
    auth: ["session"],
    status: 201,
    input: z.object({
      params: projectParams,
      body: z.object({
        name: z
          .string()
          .max(128)
          .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), bare("name must not hold control characters"))
          .optional(),
        bound: z.boolean().default(true),
      }),
    }),
    output: z.object({ key: keySchema, apiKey: z.string() }),
    async run({ body }, ctx) {
      const { principal } = ctx;
      // A bound credential cannot mint its way out of its project: the new key keeps its binding and tier.
      if (principal.boundProjectId && !body.bound) {
        throw new AppError("forbidden", { message: "a key bound to a project mints only keys bound to that project" });
      }
      const created = await createApiKey(ctx.db, {
        userId: principal.userId,
        name: body.name?.trim() ?? "",
        tier: principal.tier,
        projectId: body.bound ? ctx.scope.projectId : null,
        boundTypeId: principal.boundTypeId,
      });
      return { key: keyView(created.key), apiKey: created.plaintext };
    },
  }),
  defineEndpoint({
    name: "keys.revoke",
    method: "POST",
    path: "/v1/projects/:projectId/keys/:keyId/revoke",
    summary: "Revoke one of the caller's keys; sessions it minted end with it (owner of the project, session)",
    project: "path",
    access: "owner",
    auth: ["session"],
    body: "none",
    input: z.object({ params: projectParams.extend({ keyId: z.string().max(64) }) }),
    output: z.object({ key: keySchema }),
    async run({ params }, ctx) {
      const key = await getApiKey(ctx.db, params.keyId);
      // Another user's key, or (for a bound caller) a key of another project, answers like an unknown one.
      if (!key || key.userId !== ctx.principal.userId || !withinBinding(ctx.principal, key)) throw new AppError("not_found");
      if (!key.revokedAt) await revokeApiKey(ctx.db, key.keyId, new Date(ctx.tools.clock()));
      return { key: keyView((await getApiKey(ctx.db, key.keyId))!) };
    },
  }),
];
