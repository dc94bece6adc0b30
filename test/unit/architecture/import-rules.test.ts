import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import {
  CONFIG_FILE,
  FOLDER_CYCLE_RULE,
  REPO_ROOT,
  SQL_RULE,
  checkImports,
  looksLikeSql,
  rulesMarkdown,
  sqlInSource,
  type CheckResult,
  type Violation,
} from "../../../scripts/check-imports.js";

// The checker is run on two small trees with the real rules:
// test/fixtures/import-rules/violations plants one or more violations of each
// rule (see the `planted:` comments there); .../clean follows every rule.
const FIXTURES = path.join(REPO_ROOT, "test/fixtures/import-rules");

interface Expected {
  rule: string;
  from: string | RegExp;
  to: string | RegExp;
}

const PLANTED: Expected[] = [
  {
    rule: "transport-imports-only-core-access-leaves",
    from: "src/transports/http-routes.ts",
    to: "src/ingest/accept.ts",
  },
  {
    rule: "transport-imports-only-core-access-leaves",
    from: "src/transports/http-routes.ts",
    to: "src/store/db.ts",
  },
  { rule: "domain-not-to-outer-layers", from: "src/readers/reader.ts", to: "src/transports/wire.ts" },
  { rule: "domain-not-to-outer-layers", from: "src/tasks/run.ts", to: "src/cli/command.ts" },
  { rule: "domain-imports-only-core-contract", from: "src/graph/read.ts", to: "src/core/service.ts" },
  { rule: "store-imports-only-store-and-leaves", from: "src/store/rows.ts", to: "src/config.ts" },
  { rule: "console-not-to-store", from: "src/console/page.ts", to: "src/store/db.ts" },
  { rule: "only-wiring-imports-console", from: "src/cli/serve.ts", to: "src/console/page.ts" },
  {
    rule: "only-store-imports-db-driver",
    from: "src/retrieve/search.ts",
    to: /(^|\/)node_modules\/@libsql\/client\//,
  },
  { rule: "core-not-to-domains-or-transports", from: "src/core/service.ts", to: "src/text/words.ts" },
  { rule: "no-circular", from: "src/entities/a.ts", to: "src/entities/b.ts" },
  { rule: "not-to-unresolvable", from: "src/readers/broken.ts", to: "./missing.js" },
  { rule: FOLDER_CYCLE_RULE, from: "src/code", to: "src/entities → src/code" },
  { rule: SQL_RULE, from: /^src\/ingest\/accept\.ts:\d+$/, to: "SELECT id FROM files WHERE path = ?" },
  { rule: SQL_RULE, from: /^src\/ingest\/accept\.ts:\d+$/, to: "UPDATE files SET state = '?'" },
  { rule: SQL_RULE, from: /^src\/ingest\/accept\.ts:\d+$/, to: "SELECT count(*) FROM files" },
  { rule: SQL_RULE, from: /^tools\/catalog\.ts:\d+$/, to: "DELETE FROM files WHERE id = ?" },
  { rule: SQL_RULE, from: "src/graph/schema.sql", to: "an .sql file" },
];

function matches(violation: Violation, expected: Expected): boolean {
  const fits = (actual: string, wanted: string | RegExp) =>
    typeof wanted === "string" ? actual === wanted : wanted.test(actual);
  return violation.rule === expected.rule && fits(violation.from, expected.from) && fits(violation.to, expected.to);
}

function show(violations: Violation[]): string {
  return violations.map(({ rule, from, to }) => `${rule}: ${from} → ${to}`).join("\n");
}

async function ruleNames(): Promise<string[]> {
  const { ruleSet } = await extractDepcruiseOptions(CONFIG_FILE);
  const names = (ruleSet?.forbidden ?? []).map((rule) => rule.name ?? "(unnamed)");
  return [...names, FOLDER_CYCLE_RULE, SQL_RULE];
}

describe("import rules (scripts/check-imports.ts, .dependency-cruiser.cjs)", () => {
  let planted: CheckResult;
  let clean: CheckResult;

  beforeAll(async () => {
    planted = await checkImports(path.join(FIXTURES, "violations"));
    clean = await checkImports(path.join(FIXTURES, "clean"));
  });

  it("reports every planted violation", () => {
    for (const expected of PLANTED) {
      expect(
        planted.violations.some((violation) => matches(violation, expected)),
        `missing ${expected.rule}: ${String(expected.from)} → ${String(expected.to)}\nreported:\n${show(planted.violations)}`,
      ).toBe(true);
    }
  });

  it("reports nothing that was not planted (no false positives in prose, comments or the store)", () => {
    const unexpected = planted.violations.filter((violation) => !PLANTED.some((expected) => matches(violation, expected)));
    expect(show(unexpected)).toBe("");
    expect(planted.violations).toHaveLength(PLANTED.length);
  });

  it("has a planted violation for every rule of the config and the script", async () => {
    const reported = new Set(planted.violations.map(({ rule }) => rule));
    for (const name of await ruleNames()) expect(reported, `no planted violation of ${name}`).toContain(name);
  });

  it("counts type-only imports like value imports", () => {
    const typeOnly = planted.violations.filter((violation) => violation.details?.includes("(type-only import)"));
    expect(typeOnly.map(({ from, to }) => `${from} → ${to}`).sort()).toEqual([
      "src/readers/reader.ts → src/transports/wire.ts",
      "src/transports/http-routes.ts → src/store/db.ts",
    ]);
  });

  it("finds no violation in a tree that follows the rules", () => {
    expect(show(clean.violations)).toBe("");
    expect(clean.modules).toBeGreaterThan(10);
  });

  it("tells SQL from prose", () => {
    const sql = [
      "SELECT id FROM files WHERE path = ?",
      "INSERT OR IGNORE INTO files (id) VALUES (?)",
      "UPDATE files SET state = ?",
      "DELETE FROM files",
      "CREATE UNIQUE INDEX files_path ON files (path)",
      "CREATE TABLE IF NOT EXISTS t (id)",
      "PRAGMA foreign_keys = ON",
      "select id, path from files where id = ?",
      "delete from files",
      "pragma journal_mode",
    ];
    const prose = [
      "Select the files from the folder to ingest",
      "select files from the folder",
      "delete from disk on exit",
      "update the set of files",
      "create a table from the rows",
      "Insert into the index later",
      "pragma: see the docs",
    ];
    expect(sql.filter((text) => !looksLikeSql(text))).toEqual([]);
    expect(prose.filter((text) => looksLikeSql(text))).toEqual([]);
  });

  it("scans code literals, not comments", () => {
    const source = [
      "// SELECT id FROM files",
      "/* DELETE FROM files */",
      "const a = `INSERT INTO files (id) VALUES (${1})`;",
      'const b = ("SELECT x " + y) + " FROM files";',
    ].join("\n");
    expect(sqlInSource("src/x.ts", source).map(({ from }) => from)).toEqual(["src/x.ts:3", "src/x.ts:4"]);
  });
});

describe("docs/architecture.md", () => {
  const START = "<!-- import-rules:start -->";
  const END = "<!-- import-rules:end -->";
  const file = path.join(REPO_ROOT, "docs/architecture.md");
  const text = readFileSync(file, "utf8");

  it("embeds the rules table as `npm run lint:imports -- --markdown` prints it", async () => {
    expect(text.includes(START) && text.includes(END)).toBe(true);
    const embedded = text.slice(text.indexOf(START) + START.length, text.indexOf(END)).trim();
    expect(embedded).toBe((await rulesMarkdown()).trim());
  });

  it("prints one table row per rule", async () => {
    const table = await rulesMarkdown();
    for (const name of await ruleNames()) expect(table).toContain(`| \`${name}\` |`);
  });
});
