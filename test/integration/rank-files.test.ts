import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leadingName, rankFiles } from "../../src/retrieve/code/rank-files.js";
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

describe("file ranking: a question's first word as a name", () => {
  let w: TestWorld;
  const scores = async (question: string) => new Map((await rankFiles(w.app.db, [w.projectId], question)).map((f) => [f.path, f.score]));

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    await ingest(w, [fileEntry("src/books/core.ts", CORE), fileEntry("src/books/ledger-report.ts", REPORT), fileEntry("src/http/handle.ts", HANDLER)]);
    await w.app.worker.whenIdle();
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
