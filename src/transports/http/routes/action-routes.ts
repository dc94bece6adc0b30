import type { Hono } from "hono";
import type { Service } from "../../../core/service.js";
import { readJsonObject } from "../read-body.js";
import type { HttpEnv } from "../http-env.js";

/**
 * `POST /v1/api/actions` dispatches one action; `GET /v1/api/actions` lists
 * the catalog with each input's JSON Schema.
 */
export function actionRoutes(app: Hono<HttpEnv>, service: Service): void {
  app.post("/v1/api/actions", async (c) => {
    const body = await readJsonObject(c.req.raw);
    const projectId = c.req.header("x-project-id") || c.req.query("projectId") || undefined;
    const answer = await service.invoke(c.get("principal"), { action: body.action, input: body.input, projectId });
    return c.json(answer);
  });
  app.get("/v1/api/actions", (c) => c.json({ actions: service.catalog.describe() }));
}
