import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeContextPack } from "../../src/retrieve/code/code-context-pack.js";
import { FILE_RANK_WEIGHTS, TASK_RANK_WEIGHTS, isTask, leadingName, projectName, rankFiles, withoutProjectName } from "../../src/retrieve/code/rank-files.js";
import { taskTitle } from "../../src/retrieve/code/task-terms.js";
import { actions } from "../../tools/index.js";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";

/** A type declared in a file whose name does not say it, and a report that talks about it at length. */
const CORE = `/** Double-entry books. */
export class Ledger {
  readonly rows: number[] = [];
  post(amount: number): void {
    this.rows.push(amount);
  }
}

export function openBooks(): Ledger {
  return new Ledger();
}
`;
const REPORT = `import { Ledger } from "./core.js";

/** A ledger report: ledger entries, ledger balances and ledger totals, printed. */
export function ledgerReport(ledger: Ledger): string {
  const entries = ledger.rows.map((r) => \`ledger entry \${r} posted\`);
  const balance = ledger.rows.reduce((a, b) => a + b, 0);
  return [...entries, \`ledger balance \${balance}\`, "ledger entries and balances end"].join("\\n");
}
`;
const HANDLER = `/** Handles a request. */
export function handle(path: string): string {
  return path;
}
`;

/** A project of the three files above, read. */
async function booksWorld(): Promise<TestWorld> {
  const w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
  await ingest(w, [fileEntry("src/books/core.ts", CORE), fileEntry("src/books/ledger-report.ts", REPORT), fileEntry("src/http/handle.ts", HANDLER)]);
  await w.app.worker.whenIdle();
  return w;
}

describe("file ranking: a question's first word as a name", () => {
  let w: TestWorld;
  const scores = async (question: string) => new Map((await rankFiles(w.app.db, [w.projectId], question)).map((f) => [f.path, f.score]));

  beforeAll(async () => {
    w = await booksWorld();
  });
  afterAll(async () => {
    await w.close();
  });

  it("reads a capitalised first word that is no stop word as a candidate name; questions and symbol queries give none", () => {
    expect(leadingName("Ledger entries and balances")).toBe("Ledger");
    expect(leadingName("How are ledger entries posted?")).toBeUndefined();
    expect(leadingName("URL parsing and construction")).toBeUndefined();
    expect(leadingName("Ledger")).toBeUndefined();
  });

  it("counts the file declaring the first word, spelled exactly so, as defining a name the question asks for", async () => {
    const asked = await scores("Ledger rows posted");
    const plain = await scores("ledger rows posted");
    expect(asked.get("src/books/core.ts")!).toBeGreaterThan(plain.get("src/books/core.ts")! + 0.5);
    expect(asked.get("src/books/ledger-report.ts")).toBe(plain.get("src/books/ledger-report.ts"));
  });

  it("leaves a capitalised first word that no declaration spells exactly to the other evidence", async () => {
    expect(await scores("Handle ledger rows posted")).toEqual(await scores("handle ledger rows posted"));
  });
});

describe("file ranking: names meet questions across inflections", () => {
  let w: TestWorld;

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    const body = (name: string) => `/** A value is resolved here. */\nexport function ${name}(input: string): string {\n  return input.trim();\n}\n`;
    await ingest(w, [fileEntry("src/http/resolveValue.ts", body("handle")), fileEntry("src/http/readValue.ts", body("handle"))]);
    await w.app.worker.whenIdle();
  });
  afterAll(async () => {
    await w.close();
  });

  it("a file named for the stem of a question's word ranks first (`resolveValue` for 'value resolved')", async () => {
    const ranked = await rankFiles(w.app.db, [w.projectId], "how is a value resolved");
    expect(ranked[0]?.path).toBe("src/http/resolveValue.ts");
    // The name's own word `resolve` meets `resolved` (without stems the two scored within 5 %).
    expect(ranked[0]!.score).toBeGreaterThan(1.2 * ranked[1]!.score);
  });
});

/** A whole issue, as an agent is handed one: the `Ledger` type written in prose, capitalised, among many other words. */
const ISSUE = (ledger: string) =>
  `Posting rows twice gives a wrong balance. When the ${ledger} report is printed after two posts of the same amount, ` +
  "the balance shows only one of them and the entries list repeats the first row. I expected both rows posted and the " +
  "balance to be their sum. This started after upgrading; the books are opened with openBooks() as the docs say.";

describe("file ranking: a whole issue is a task, not a search", () => {
  let w: TestWorld;
  const scores = async (text: string, weights?: typeof FILE_RANK_WEIGHTS) =>
    new Map((await rankFiles(w.app.db, [w.projectId], text, new Map(), weights)).map((f) => [f.path, f.score]));

  beforeAll(async () => {
    w = await booksWorld();
  });
  afterAll(async () => {
    await w.close();
  });

  it("tells a task (over sixteen words) from a question", () => {
    expect(isTask(ISSUE("Ledger"))).toBe(true);
    expect(isTask("how are ledger entries posted and balanced")).toBe(false);
  });

  it("reads no capitalised prose word of a task as a name, where a question's weights would", async () => {
    expect(await scores(ISSUE("Ledger"))).toEqual(await scores(ISSUE("ledger")));
    const asQuestion = await scores(ISSUE("Ledger"), FILE_RANK_WEIGHTS);
    const plain = await scores(ISSUE("ledger"), FILE_RANK_WEIGHTS);
    expect(asQuestion.get("src/books/core.ts")!).toBeGreaterThan(plain.get("src/books/core.ts")!);
  });

  it("weighs the caller's structural evidence more in a task than in a question, by the ratio of their weights", async () => {
    const extra = new Map([[(await w.app.db.get<{ file_id: string }>("SELECT file_id FROM files WHERE path = ?", ["src/http/handle.ts"]))!.file_id, 1]]);
    const of = async (text: string) => (await rankFiles(w.app.db, [w.projectId], text, extra)).find((f) => f.path === "src/http/handle.ts")!.score;
    // handle.ts holds none of the words: its score is the caller's evidence alone.
    expect(TASK_RANK_WEIGHTS.extra).toBeGreaterThan(FILE_RANK_WEIGHTS.extra);
    expect(await of(ISSUE("ledger"))).toBeCloseTo((TASK_RANK_WEIGHTS.extra / FILE_RANK_WEIGHTS.extra) * (await of("ledger rows posted")), 6);
  });

  it("orders a task's declarations by their files' ranking", async () => {
    const projectIds = [w.projectId];
    const req = { task: ISSUE("ledger"), budget: 4096 };
    const pack = await codeContextPack(w.app.db, { projectIds }, req, w.app.tools);
    const place = new Map(pack.files.map((f, i) => [f.filepath, i]));
    const places = pack.declarations.map((d) => place.get(d.filepath) ?? pack.files.length);
    expect(pack.declarations.length).toBeGreaterThan(1);
    // Within the first ten rows no declaration of a lower-ranked file comes before one of a higher-ranked file.
    expect(places.slice(0, 10)).toEqual([...places.slice(0, 10)].sort((a, b) => a - b));
    const unordered = await codeContextPack(w.app.db, { projectIds }, { ...req, tuning: { filePlace: 0 } }, w.app.tools);
    expect(unordered.declarations.map((d) => d.symbol).sort()).toEqual(pack.declarations.map((d) => d.symbol).sort());
  });
});

/** Sets combined in a function's body: the words of the question are in the body alone, not in any header or doc. */
const SETS = `/** Two sets combined. */
export function combine(a: Set<number>, b: Set<number>): number[] {
  const intersection = [...a].filter((x) => b.has(x));
  const union = [...new Set([...a, ...b])];
  return [...intersection, ...union];
}
`;
/** A header file's comment names the common words (not the rare one), its declarations do nothing with them. */
const HUB = `/** Shared declarations: set operations and union types are named here, so work starts here. */
export interface Options {
  verbose: boolean;
}
`;

describe("file ranking: a file holds the words its declarations' bodies use", () => {
  let w: TestWorld;
  const ranked = async (weights?: typeof FILE_RANK_WEIGHTS) =>
    (await rankFiles(w.app.db, [w.projectId], "how set intersection and union operations work", new Map(), weights)).map((f) => f.path);

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    const filler = (i: number) => fileEntry(`src/step${i}.ts`, `/** Step ${i}: work on a set of operations. */\nexport const step${i} = ${i};\n`);
    await ingest(w, [fileEntry("src/combine.ts", SETS), fileEntry("src/shared.ts", HUB), filler(1), filler(2), filler(3)]);
    await w.app.worker.whenIdle();
  });
  afterAll(async () => {
    await w.close();
  });

  it("ranks the file whose function body computes the intersection above the one whose comment only names it", async () => {
    expect((await ranked())[0]).toBe("src/combine.ts");
    // Counting a file's document alone (headers and docs), the comment wins.
    expect((await ranked({ ...FILE_RANK_WEIGHTS, bodies: 0 }))[0]).toBe("src/shared.ts");
  });

  it("leaves a task's weights counting the document alone", () => {
    expect(TASK_RANK_WEIGHTS.bodies).toBe(0);
  });
});

describe("file ranking: a file named by adjacent words of the question", () => {
  let w: TestWorld;
  const scores = async (question: string, weights: typeof FILE_RANK_WEIGHTS) =>
    new Map((await rankFiles(w.app.db, [w.projectId], question, new Map(), weights)).map((f) => [f.path, f.score]));
  const without = { ...FILE_RANK_WEIGHTS, compounds: 0 };

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    const element = `/** A node of the parsed hierarchy. */\nexport abstract class JsonElement {\n  abstract copy(): JsonElement;\n}\n`;
    const reader = `/** Reads a tree model. */\nexport function readTree(text: string): unknown {\n  return JSON.parse(text);\n}\n`;
    await ingest(w, [fileEntry("src/JsonElement.ts", element), fileEntry("src/read.ts", reader)]);
    await w.app.worker.whenIdle();
  });
  afterAll(async () => {
    await w.close();
  });

  it("counts `JsonElement` as named by 'json element': its name evidence is whole, the other file's unchanged", async () => {
    const named = await scores("json element hierarchy and tree model", FILE_RANK_WEIGHTS);
    const plain = await scores("json element hierarchy and tree model", without);
    // Without the rule `json` and `element` were two of five words (stem 0.4 at most): whole, the file gains over a third.
    expect(named.get("src/JsonElement.ts")!).toBeGreaterThan(1.4 * plain.get("src/JsonElement.ts")!);
    expect(named.get("src/read.ts")).toBe(plain.get("src/read.ts"));
  });

  it("reads no name from words a stop word parts ('json and element' is no `JsonElement`)", async () => {
    expect(await scores("json and element hierarchy", FILE_RANK_WEIGHTS)).toEqual(await scores("json and element hierarchy", without));
  });
});

describe("file ranking: vendored distributions inside a package", () => {
  let w: TestWorld;
  const TIMEOUTS = `"""Connection timeouts: how long a pooled connection waits for a slow proxy."""\n\n\ndef proxy_timeout(seconds):\n    return seconds\n`;

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    // The same module three times: vendored inside a package, in a monorepo's root `packages/`, and under `_vendor`.
    await ingest(w, [fileEntry("client/packages/pool/timeouts.py", TIMEOUTS), fileEntry("packages/pool/timeouts.py", TIMEOUTS), fileEntry("client/_vendor/pool/timeouts.py", TIMEOUTS)]);
    await w.app.worker.whenIdle();
  });
  afterAll(async () => {
    await w.close();
  });

  it("weighs a `packages` folder inside a package and a `_vendor` folder as vendored; a root `packages/` in full", async () => {
    const score = new Map((await rankFiles(w.app.db, [w.projectId], "proxy timeout of a pooled connection")).map((f) => [f.path, f.score]));
    const own = score.get("packages/pool/timeouts.py")!;
    expect(own).toBeGreaterThan(0);
    expect(score.get("client/packages/pool/timeouts.py")!).toBeLessThan(0.5 * own);
    expect(score.get("client/_vendor/pool/timeouts.py")!).toBeLessThan(0.5 * own);
  });
});

describe("file ranking: a task's title ranked as a short question", () => {
  let w: TestWorld;
  const APP = `"""The books application."""\n\n\nclass Books:\n    """The application: loads settings and opens the ledgers."""\n\n    def __init__(self, settings):\n        self.settings = settings\n`;
  const LEDGER = `"""Double-entry ledgers."""\n\n\nclass Ledger:\n    """A ledger of posted entries."""\n\n    def balance(self):\n        """The sum of every posted entry."""\n        return sum(self.rows)\n\n    def close(self):\n        """No entry is posted after closing."""\n        self.rows = tuple(self.rows)\n`;
  const EXPORT = `"""Rows written out as comma-separated text."""\n\n\ndef export_rows(rows, path):\n    """Writes rows to a csv file, one per line, with a header of column names."""\n    return csv_lines(rows)\n\n\ndef csv_lines(rows):\n    """Each row as a csv line."""\n    return [",".join(map(str, r)) for r in rows]\n`;
  const BODY =
    "\nAfter closing, I write the rows out and the total printed at the end is off by the last amount, as below.\n\n```\n>>> export_rows(rows, 'out.csv')\n3 rows written\n```\n";
  const ranking = async (task: string, title: number) =>
    (await rankFiles(w.app.db, [w.projectId], task, new Map(), { ...TASK_RANK_WEIGHTS, title })).map((f) => [f.path, f.score] as const);

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    await ingest(w, [fileEntry("books/app.py", APP), fileEntry("books/ledger.py", LEDGER), fileEntry("books/export.py", EXPORT), fileEntry("tests/test_export.py", "def test_export():\n    assert True\n")]);
    await w.app.worker.whenIdle();
  });
  afterAll(async () => {
    await w.close();
  });

  it("reads an issue's first line as its title only when more lines follow and it holds 2 to 16 words", () => {
    expect(taskTitle(`Ledger balance wrong after closing${BODY}`)).toBe("Ledger balance wrong after closing");
    expect(taskTitle("Ledger balance wrong after closing")).toBeUndefined();
    expect(taskTitle(`Broken${BODY}`)).toBeUndefined();
  });

  it("reads the project's own name from its files' top folder, under a source root and without leading underscores", () => {
    expect(projectName(["src/_tool/main.py", "src/_tool/python.py", "src/tool/__init__.py", "testing/test_main.py", "doc/conf.py"])).toBe("tool");
    expect(projectName(["books/app.py", "books/ledger.py", "tests/test_export.py", "setup.py"])).toBe("books");
    expect(withoutProjectName("Books 2.0 complains about a ledger's balance", "books")).toBe("2.0 complains about a ledger's balance");
  });

  /** What the title alone scores for a file, ranked as a short question. */
  const asQuestion = async (title: string, path: string) =>
    (await rankFiles(w.app.db, [w.projectId], title, new Map(), FILE_RANK_WEIGHTS)).find((f) => f.path === path)?.score ?? 0;
  /** How much a task's title adds to each file's score. */
  const titleGains = async (task: string) => {
    const before = new Map(await ranking(task, 0));
    return new Map((await ranking(task, TASK_RANK_WEIGHTS.title)).map(([path, score]) => [path, score - (before.get(path) ?? 0)]));
  };

  it("adds the title's own ranking at the title weight: the file the title names in prose gains most", async () => {
    const title = "Ledger balance wrong after closing";
    expect(TASK_RANK_WEIGHTS.title).toBeGreaterThan(0);
    const gains = await titleGains(`${title}${BODY}`);
    expect(gains.get("books/ledger.py")!).toBeCloseTo(TASK_RANK_WEIGHTS.title * (await asQuestion(title, "books/ledger.py")), 9);
    expect(gains.get("books/export.py")!).toBeLessThan(0.5 * gains.get("books/ledger.py")!);
  });

  it("weighs a telling title above a vague one: the title's scores are not scaled to its best file", async () => {
    const telling = await titleGains(`Ledger balance wrong after closing${BODY}`);
    const vague = await titleGains(`some rows are off${BODY}`);
    const best = (gains: Map<string, number>) => Math.max(...gains.values());
    expect(best(vague)).toBeGreaterThan(0);
    expect(best(telling)).toBeGreaterThan(1.5 * best(vague));
  });

  it("reads no project name in the title as a name: `Books …` lifts no `class Books`", async () => {
    const named = await titleGains(`Books: ledger balance wrong after closing${BODY}`);
    const plain = await titleGains(`ledger balance wrong after closing${BODY}`);
    expect(named.get("books/ledger.py")!).toBeGreaterThan(0);
    expect(named.get("books/app.py") ?? 0).toBeCloseTo(plain.get("books/app.py") ?? 0, 9);
    expect(named.get("books/ledger.py")!).toBeCloseTo(plain.get("books/ledger.py")!, 9);
  });
});
