import { z } from "zod";
import { defineEndpoint } from "./endpoint.js";
import type { AnyEndpoint } from "./endpoint.js";
import { mintSession } from "../access/session-token.js";

/**
 * `POST /v1/sessions`: trades an API key for a 12-hour session token. The
 * session keeps the key's tier and binding, so a `submit` key cannot use a
 * session to reach more than its key does (and gets 403 here anyway).
 */
export const sessionEndpoints: AnyEndpoint[] = [
  defineEndpoint({
    name: "sessions.create",
    method: "POST",
    path: "/v1/sessions",
    summary: "Trade an API key for a 12-hour session token",
    project: "none",
    access: "none",
    status: 201,
    body: "none",
    input: z.object({}).loose(),
    output: z.object({ sessionToken: z.string(), expiresAt: z.string() }),
    run: (_input, ctx) => mintSession(ctx.db, ctx.principal, new Date(ctx.tools.clock())),
  }),
];
