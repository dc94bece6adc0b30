import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

/** `METHOD /path/{param}` rows of the "Served routes" table in docs/api.md. */
function documentedRoutes(): Set<string> {
  const doc = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");
  const table = doc.slice(doc.indexOf("## Served routes"), doc.indexOf("\n## ", doc.indexOf("## Served routes") + 1));
  const routes = new Set<string>();
  for (const m of table.matchAll(/^\| `([A-Z/]+) (\/[^`]+)` \|/gm)) {
    for (const method of m[1]!.split("/")) routes.add(`${method} ${m[2]}`);
  }
  return routes;
}

describe("served routes and documented routes are the same set", () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await createTestWorld();
  });
  afterAll(async () => w.close());

  it("every endpoint is documented in docs/api.md, and every documented route is served", () => {
    // The HTTP app's own route list: endpoints, /mcp and the OpenAPI document, as hono serves them.
    const served = new Set(w.app.http.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`));
    const documented = documentedRoutes();
    expect([...served].filter((r) => !documented.has(r)).sort()).toEqual([]);
    expect([...documented].filter((r) => !served.has(r)).sort()).toEqual([]);
  });
});
