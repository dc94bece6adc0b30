import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MAX_DATA_DEPTH } from "../../../src/readers/config/config-claims.js";
import { MAX_CONFIG_CELLS, SMALL_CONFIG_LINES, configReader } from "../../../src/readers/config/config-reader.js";
import type { ReadOutput } from "../../../src/readers/reader.js";
import { goldenInput } from "../../support/golden.js";
import { expectWellFormed } from "../../support/invariants.js";
import { LOCATION_KEYS, expectLocations } from "../../support/location-invariants.js";

const fixture = (name: string) => new Uint8Array(readFileSync(goldenInput("readers", name)));

async function read(source: string | Uint8Array, path: string, contentType = ""): Promise<ReadOutput> {
  const bytes = typeof source === "string" ? new TextEncoder().encode(source) : source;
  const out = await configReader.read({ path, contentType, bytes });
  expectWellFormed(out);
  expectLocations(out, LOCATION_KEYS.lines);
  return out;
}

const texts = (out: ReadOutput): string[] => out.cells.map((c) => c.text);

describe("configReader.accepts", () => {
  it.each([
    ["package.json", "", true],
    ["tsconfig.json", "application/json", true],
    [".vscode/settings.jsonc", "", true],
    ["compose.yml", "", true],
    ["pyproject.toml", "", true],
    ["Cargo.lock", "", true],
    ["manifest", "application/manifest+json", true],
    ["notes", "application/yaml", true],
    ["data.jsonl", "application/x-ndjson", false],
    ["setup.cfg", "text/plain", false],
  ])("%s (%s) → %s", (path, contentType, expected) => {
    expect(configReader.accepts({ path, contentType })).toBe(expected);
  });
});

describe("configReader on JSON", () => {
  it("reads a small file with comments and trailing commas as one faction of path: value cells", async () => {
    const out = await read(fixture("settings.json"), ".vscode/settings.json");
    expect(out.factions).toHaveLength(1);
    expect(out.factions[0]?.location).toEqual({ lineStart: 1, lineEnd: 18 });
    expect(texts(out)).toEqual([
      '["editor.tabSize"]: 2',
      '["editor.rulers"]: 80, 120',
      '["files.exclude"].**/node_modules: true',
      '["files.exclude"].dist: true',
      "search.followSymlinks: false",
      "search.maxResults: null",
      "telemetry.level: off",
      "extensions[0].id: dbaeumer.vscode-eslint",
      "extensions[0].enabled: true",
      "extensions[1].id: esbenp.prettier-vscode",
      "extensions[1].enabled: false",
      "description: Shared settings. Keep them small.",
      "emptyList: []",
      "emptyMap: {}",
    ]);
  });

  it("makes a faction per top-level key in a larger file, located on its lines", async () => {
    const scripts = Array.from({ length: SMALL_CONFIG_LINES }, (_, i) => `    "task${i}": "run ${i}"`).join(",\n");
    const source = `{\n  "name": "orbit",\n  "scripts": {\n${scripts}\n  },\n  "private": true\n}\n`;
    const out = await read(source, "package.json");
    expect(out.factions.map((f) => [f.text.slice(0, 14), f.location.lineStart, f.location.lineEnd])).toEqual([
      ['"name": "orbit', 2, 2],
      ['"scripts": {\n ', 3, SMALL_CONFIG_LINES + 4],
      ['"private": tru', SMALL_CONFIG_LINES + 5, SMALL_CONFIG_LINES + 5],
    ]);
    expect(texts(out).slice(0, 2)).toEqual(["name: orbit", "scripts.task0: run 0"]);
  });

  it("keeps invalid JSON as one faction without cells", async () => {
    const out = await read('{\n  "a": 1,\n  "b": \n', "broken.json");
    expect(out.factions.map((f) => [f.factionType, f.location])).toEqual([["config", { lineStart: 1, lineEnd: 3 }]]);
    expect(out.cells).toEqual([]);
  });

  it("yields nothing for lockfiles and blank files", async () => {
    expect(await read('{"lockfileVersion": 3}', "package-lock.json")).toEqual({ factions: [], cells: [] });
    expect(await read("\n\n", "empty.json")).toEqual({ factions: [], cells: [] });
  });

  it("caps the cells of a file and the depth of a path", async () => {
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: MAX_CONFIG_CELLS + 500 }, (_, i) => [`k${i}`, i])));
    expect((await read(wide, "wide.json")).cells).toHaveLength(MAX_CONFIG_CELLS);
    let deep: unknown = "bottom";
    for (let i = 0; i < 50; i++) deep = { d: deep };
    const cells = texts(await read(JSON.stringify(deep), "deep.json"));
    expect(cells).toEqual([`${Array.from({ length: MAX_DATA_DEPTH }, () => "d").join(".")}: {…}`]);
  });
});

describe("configReader on YAML", () => {
  it("makes a faction per top-level key of every document, with merge keys applied", async () => {
    const out = await read(fixture("compose.yaml"), "compose.yaml");
    expect(out.factions.map((f) => [f.text.split("\n")[0], f.location.lineStart, f.location.lineEnd])).toEqual([
      ["name: orbit-dev", 2, 2],
      ["x-defaults: &defaults", 4, 7],
      ["services:", 9, 31],
      ["volumes:", 33, 34],
      ["kind: Note", 37, 37],
      ["text: Staging uses the same stack.", 38, 38],
    ]);
    expect(texts(out)).toEqual(expect.arrayContaining([
      "services.api.restart: unless-stopped",
      "services.api.ports: 8080:8080, 9090:9090",
      "services.db.healthcheck.test: CMD, pg_isready",
      "services.cache.command: redis-server --maxmemory 256mb",
      "text: Staging uses the same stack.",
    ]));
    expect(out.factions[0]?.inferredType).toBe("application/yaml");
  });

  it("refuses alias bombs and invalid YAML, keeping one faction without cells", async () => {
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x]", ...Array.from({ length: 8 }, (_, i) => {
      const prev = i === 0 ? "a" : `l${i - 1}`;
      return `l${i}: &l${i} [${Array.from({ length: 9 }, () => `*${prev}`).join(", ")}]`;
    })].join("\n");
    for (const source of [bomb, "key: [unclosed\nother: 1\n"]) {
      const out = await read(source, "bad.yaml");
      expect(out.factions).toHaveLength(1);
      expect(out.cells).toEqual([]);
    }
  });
});

describe("configReader on TOML", () => {
  it("makes a faction per table, with array-of-tables indexes in the paths", async () => {
    const out = await read(fixture("pyproject.toml"), "pyproject.toml");
    expect(out.factions.map((f) => [f.text.split("\n")[0], f.location.lineStart, f.location.lineEnd])).toEqual([
      ["[build-system]", 2, 4],
      ["[project]", 6, 21],
      ["[project.urls]", 23, 25],
      ["[tool.ruff]", 27, 28],
      ["[tool.ruff.lint]", 30, 31],
      ["[[tool.hatch.envs]]", 33, 35],
      ["[[tool.hatch.envs]]", 37, 38],
      ["[tool.hatch.envs.meta]", 40, 41],
    ]);
    expect(texts(out)).toEqual(expect.arrayContaining([
      "project.description: A client for the Orbit cache. [not a header] inside a multi-line string.",
      "project.authors[1].name: Alan Turing",
      'project.urls["Issue Tracker"]: https://example.org/orbit/issues',
      "tool.hatch.envs[0].python: 3.12",
      "tool.hatch.envs[1].name: docs",
      "tool.hatch.envs[1].meta.owner: docs team",
    ]));
  });

  it("reads root keys before the first table as their own faction", async () => {
    const lines = Array.from({ length: SMALL_CONFIG_LINES }, (_, i) => `k${i} = ${i}`);
    const out = await read(`title = "x"\n${lines.join("\n")}\n\n[owner]\nname = "Ada"\n`, "config.toml");
    expect(out.factions.map((f) => f.location)).toEqual([
      { lineStart: 1, lineEnd: SMALL_CONFIG_LINES + 1 },
      { lineStart: SMALL_CONFIG_LINES + 3, lineEnd: SMALL_CONFIG_LINES + 4 },
    ]);
    expect(texts(out).at(-1)).toBe("owner.name: Ada");
  });
});
