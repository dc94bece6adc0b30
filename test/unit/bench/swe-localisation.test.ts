import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Bm25Index, Fts5Terms } from "../../../bench/lib/swe-bm25.js";
import { fileHit, functionHit, packDeclarationFileRanking, packFileRanking, packFunctionRanking } from "../../../bench/lib/swe-localisation.js";

describe("SWE-bench localisation scoring", () => {
  const pack = {
    declarations: [
      { symbol: "Session.request", kind: "method", filepath: "requests/sessions.py" },
      { symbol: "DEFAULT_RETRIES", kind: "variable", filepath: "requests/adapters.py" },
      { symbol: "HTTPAdapter.send", kind: "method", filepath: "requests/adapters.py" },
      { symbol: "Session", kind: "class", filepath: "requests/sessions.py" },
    ],
    files: [
      { filepath: "requests/models.py", reason: "match" },
      { filepath: "tests/test_requests.py", reason: "test" },
      { filepath: "requests/sessions.py", reason: "match" },
    ],
  };

  it("ranks files by the files list, then the declarations' files; tests are no file ranking", () => {
    expect(packFileRanking(pack)).toEqual(["requests/models.py", "requests/sessions.py", "requests/adapters.py"]);
  });

  it("ranks files in declaration order as the other reading", () => {
    expect(packDeclarationFileRanking(pack)).toEqual(["requests/sessions.py", "requests/adapters.py", "requests/models.py"]);
  });

  it("ranks functions, methods and classes only, in pack order", () => {
    expect(packFunctionRanking(pack).map((f) => f.symbol)).toEqual(["Session.request", "HTTPAdapter.send", "Session"]);
  });

  it("counts a hit only when every gold item is within the top k", () => {
    const files = packDeclarationFileRanking(pack);
    expect(fileHit(files, ["requests/adapters.py"], 1)).toBe(false);
    expect(fileHit(files, ["requests/adapters.py"], 2)).toBe(true);
    expect(fileHit(files, [], 5)).toBe(false);
    const functions = packFunctionRanking(pack);
    expect(functionHit(functions, [{ path: "requests/sessions.py", name: "request" }], 10)).toBe(true);
    expect(functionHit(functions, [{ path: "requests/models.py", name: "request" }], 10)).toBe(false);
    const both = [
      { path: "requests/sessions.py", name: "request" },
      { path: "requests/adapters.py", name: "send" },
    ];
    expect(functionHit(functions, both, 2)).toBe(true);
    expect(functionHit(functions, both, 1)).toBe(false);
  });
});

describe("BM25 baseline", () => {
  let terms: Fts5Terms;
  beforeAll(async () => {
    terms = await Fts5Terms.open();
  });
  afterAll(() => terms.close());

  it("cuts words as FTS5's porter unicode61 tokenizer does", async () => {
    const [counts] = await terms.counts(["Running runs parse_config HTTPAdapter café"]);
    expect(Object.fromEntries(counts!)).toEqual({ run: 2, pars: 1, config: 1, httpadapt: 1, cafe: 1 });
  });

  it("scores with Lucene's idf, k1 and b", () => {
    const index = new Bm25Index(0.9, 0.4);
    index.set("a", new Map([["x", 2], ["y", 1]]));
    index.set("b", new Map([["y", 3]]));
    index.set("c", new Map([["z", 1]]));
    const [top] = index.search(new Map([["x", 1]]), 1);
    const avg = (3 + 3 + 1) / 3;
    const idf = Math.log(1 + (3 - 1 + 0.5) / (1 + 0.5));
    expect(top!.key).toBe("a");
    expect(top!.score).toBeCloseTo((idf * 2 * 1.9) / (2 + 0.9 * (1 - 0.4 + (0.4 * 3) / avg)), 10);
  });

  it("replaces and deletes documents, so a moved tree is scored on its current text only", () => {
    const index = new Bm25Index();
    index.set("f.py", new Map([["old", 1]]));
    index.set("g.py", new Map([["other", 1]]));
    index.set("f.py", new Map([["new", 1]]));
    expect(index.search(new Map([["old", 1]]), 5)).toEqual([]);
    expect(index.search(new Map([["new", 1]]), 5).map((h) => h.key)).toEqual(["f.py"]);
    index.delete("f.py");
    expect(index.size).toBe(1);
    expect(index.search(new Map([["new", 1]]), 5)).toEqual([]);
  });
});
