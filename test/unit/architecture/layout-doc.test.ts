import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** Every folder under `src/`, as `src/a/b/`. */
function sourceFolders(dir = "src"): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = `${dir}/${entry.name}`;
    out.push(`${path}/`, ...sourceFolders(path));
  }
  return out;
}

/** The paths named in backticks in the layout table of docs/architecture.md. */
function layoutPaths(): string[] {
  const doc = readFileSync(join(root, "docs/architecture.md"), "utf8");
  const table = doc.slice(doc.indexOf("<!-- layout:start -->"), doc.indexOf("<!-- layout:end -->"));
  expect(table.length).toBeGreaterThan(100);
  return [...table.matchAll(/^\| ([^|]+) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([^`]+)`/g)].map((p) => p[1]!));
}

describe("docs/architecture.md's layout table is the tree", () => {
  it("names every folder under src/", () => {
    const named = new Set(layoutPaths());
    expect(sourceFolders().filter((f) => !named.has(f))).toEqual([]);
  });

  it("names nothing that does not exist", () => {
    expect(layoutPaths().filter((p) => !existsSync(join(root, p)))).toEqual([]);
  });
});
