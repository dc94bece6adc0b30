import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rankDeclarations } from "../../src/retrieve/memory/code-rows.js";
import { queryTerms } from "../../src/retrieve/query-terms.js";
import { declarationCount, declarationPostings, inNames } from "../../src/store/search/declaration-search.js";
import { actions } from "../../tools/index.js";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";

/** A long function whose name says what it does, its body many lines of other words. */
const filler = Array.from({ length: 40 }, (_, i) => `  const step${i} = lookup(parts, ${i}, separator, schema, alias, trimmed);`).join("\n");
const PARSER = `export function parseStringReference(ref: string): string[] {
  const separator = ".";
${filler}
  return ref.split(separator);
}

/** The string reference is parsed by the caller before it comes here. */
export function readInput(text: string): string {
  return text;
}

/** Takes a string reference parsed earlier and logs it. */
export function logInput(text: string): void {
  console.log(text);
}

export interface ReaderOptions {
  /** True to parse the string reference eagerly. */
  eager: boolean;
  /** The string reference parsed last. */
  last: string;
}
`;

describe("memory_query's declaration rows", () => {
  let w: TestWorld;
  const rank = async (question: string) => (await rankDeclarations(w.app.db, [w.projectId], queryTerms(question), undefined)).map((d) => d.name);

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    await ingest(w, [
      fileEntry("src/parser/reference-parser.ts", PARSER),
    ]);
    await w.app.worker.whenIdle();
  });
  afterAll(async () => {
    await w.close();
  });

  it("the declaration count is the index's row count, and follows a file read again with fewer declarations", async () => {
    const counted = async () => Number((await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM symbols_fts"))?.n);
    const before = await declarationCount(w.app.db);
    expect(before).toBeGreaterThanOrEqual(5);
    expect(before).toBe(await counted());
    await ingest(w, [fileEntry("src/parser/other.ts", "export function one(): number {\n  return 1;\n}\nexport function two(): number {\n  return 2;\n}\n")]);
    await w.app.worker.whenIdle();
    const grown = await declarationCount(w.app.db);
    expect(grown).toBeGreaterThan(before);
    expect(grown).toBe(await counted());
    await ingest(w, [fileEntry("src/parser/other.ts", "export function one(): number {\n  return 1;\n}\n")]);
    await w.app.worker.whenIdle();
    const shrunk = await declarationCount(w.app.db);
    expect(shrunk).toBeLessThan(grown);
    expect(shrunk).toBe(await counted());
  });

  it("the name column is searched on its own: a word in a doc comment or body names nothing", async () => {
    const [named, mentioned, anywhere] = await declarationPostings(w.app.db, [inNames('"reference"'), inNames('"eagerly"'), '"eagerly"'], []);
    expect(named!.df).toBe(1); // parseStringReference
    expect(mentioned!.df).toBe(0);
    expect(anywhere!.df).toBeGreaterThan(0);
  });

  it("a long declaration whose name holds the question's words ranks above short ones that only mention them, and properties below both", async () => {
    const names = await rank("How is a string reference parsed?");
    expect(names[0]).toBe("parseStringReference");
    const property = Math.min(names.indexOf("ReaderOptions.eager"), names.indexOf("ReaderOptions.last"));
    expect(property).toBeGreaterThan(names.indexOf("readInput"));
  });
});
