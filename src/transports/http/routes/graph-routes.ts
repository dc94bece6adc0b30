import type { Context, Hono } from "hono";
import type { ServiceDeps } from "../../../core/deps.js";
import { requireEditor, resolveProject } from "../../../core/project-access.js";
import { readCells } from "../../../graph/read-cells.js";
import { putEntityRoles, readEntities } from "../../../graph/read-entities.js";
import { readFactions } from "../../../graph/read-factions.js";
import { readFile, readFiles } from "../../../graph/read-files.js";
import { readScope } from "../../../graph/read-scope.js";
import type { ReadScope } from "../../../graph/read-scope.js";
import type { HttpEnv } from "../http-env.js";
import { pageResponse } from "../paging.js";
import { readJsonObject } from "../read-body.js";

async function scopeOf(c: Context<HttpEnv>, deps: ServiceDeps, editor = false): Promise<ReadScope> {
  const access = await resolveProject(deps.db, c.get("principal"), c.req.param("projectId"));
  if (editor) requireEditor(access);
  return readScope(deps, access.projectId);
}

/** Reads of the derived graph (cells, entities, factions) and of files. */
export function graphRoutes(app: Hono<HttpEnv>, deps: ServiceDeps): void {
  app.get("/v1/projects/:projectId/cells", async (c) => pageResponse(c, await readCells(await scopeOf(c, deps), c.req.query())));
  app.get("/v1/projects/:projectId/entities", async (c) => pageResponse(c, await readEntities(await scopeOf(c, deps), c.req.query())));
  app.get("/v1/projects/:projectId/factions", async (c) => pageResponse(c, await readFactions(await scopeOf(c, deps), c.req.query())));
  app.get("/v1/projects/:projectId/files", async (c) => pageResponse(c, await readFiles(await scopeOf(c, deps), c.req.query())));
  app.get("/v1/projects/:projectId/files/:fileId", async (c) => c.json(await readFile(await scopeOf(c, deps), c.req.param("fileId"))));
  app.put("/v1/projects/:projectId/entities/:entityId/roles", async (c) => {
    const scope = await scopeOf(c, deps, true);
    const body = await readJsonObject(c.req.raw);
    return c.json(await putEntityRoles(scope, c.req.param("entityId"), body.roles));
  });
}
