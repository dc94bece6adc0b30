import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";

describe("config", () => {
  it("defaults to the embedded file under the root, loopback, 8787, o200k_base", () => {
    const c = loadConfig({ root: "/tmp/x" }, {});
    expect(c).toMatchObject({ root: "/tmp/x", dbUrl: "file:/tmp/x/.pks/pks.db", host: "127.0.0.1", port: 8787, tokenizer: "o200k_base" });
    expect(c.rateLimit).toEqual({ max: 60, windowMs: 60_000 });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it("reads PKS_* variables, and flags win over them", () => {
    const env = { PKS_DB_URL: "libsql://db.example", PKS_DB_AUTH_TOKEN: "t", PKS_PORT: "9000", PKS_HOST: "0.0.0.0" };
    expect(loadConfig({ root: "/r" }, env)).toMatchObject({ dbUrl: "libsql://db.example", dbAuthToken: "t", port: 9000, host: "0.0.0.0" });
    expect(loadConfig({ root: "/r", port: "7000", db: "file:/r/other.db" }, env)).toMatchObject({ port: 7000, dbUrl: "file:/r/other.db" });
  });

  it("reads where logs go: stderr by default, silent on PKS_LOG=silent, and refuses anything else", () => {
    expect(loadConfig({ root: "/r" }, {}).logs).toBe("stderr");
    expect(loadConfig({ root: "/r" }, { PKS_LOG: "" }).logs).toBe("stderr");
    expect(loadConfig({ root: "/r" }, { PKS_LOG: "silent" }).logs).toBe("silent");
    expect(() => loadConfig({ root: "/r" }, { PKS_LOG: "quiet" })).toThrow(/invalid configuration: logs/);
  });

  it("reads the fetch allow-list and time limit (empty and 30 s by default)", () => {
    expect(loadConfig({ root: "/r" }, {}).fetch).toEqual({ allow: [], timeoutMs: 30_000 });
    const c = loadConfig({ root: "/r" }, { PKS_FETCH_ALLOW: " 127.0.0.1:8080, docs.internal ,,10.0.0.0/8", PKS_FETCH_TIMEOUT_MS: "500" });
    expect(c.fetch).toEqual({ allow: ["127.0.0.1:8080", "docs.internal", "10.0.0.0/8"], timeoutMs: 500 });
    expect(() => loadConfig({ root: "/r" }, { PKS_FETCH_TIMEOUT_MS: "soon" })).toThrow(/invalid configuration: fetchTimeoutMs/);
  });

  it("reads the tools MCP offers: --tools over PKS_TOOLS, comma-separated, all by default; an empty list is refused", () => {
    expect(loadConfig({ root: "/r" }, {}).tools).toEqual(["all"]);
    expect(loadConfig({ root: "/r" }, { PKS_TOOLS: " code, task_status ,," }).tools).toEqual(["code", "task_status"]);
    expect(loadConfig({ root: "/r", tools: "memory_query" }, { PKS_TOOLS: "code" }).tools).toEqual(["memory_query"]);
    expect(() => loadConfig({ root: "/r", tools: " , " }, {})).toThrow(/invalid configuration: tools: names no tool or profile/);
  });

  it("reads the old generation's growing percent: 30 by default, 0 for V8's own, a word or a negative refused", () => {
    expect(loadConfig({ root: "/r" }, {}).heapGrowingPercent).toBe(30);
    expect(loadConfig({ root: "/r" }, { PKS_HEAP_GROWING_PERCENT: "0" }).heapGrowingPercent).toBe(0);
    expect(loadConfig({ root: "/r" }, { PKS_HEAP_GROWING_PERCENT: "50" }).heapGrowingPercent).toBe(50);
    expect(() => loadConfig({ root: "/r" }, { PKS_HEAP_GROWING_PERCENT: "-5" })).toThrow(/invalid configuration: heapGrowingPercent/);
    expect(() => loadConfig({ root: "/r" }, { PKS_HEAP_GROWING_PERCENT: "lots" })).toThrow(/invalid configuration: heapGrowingPercent/);
  });

  it("reads the query threads: the cores but at most 2 by default, 0 for none, a word or a negative refused", () => {
    expect(loadConfig({ root: "/r" }, {}).queryThreads).toBe(Math.min(2, availableParallelism()));
    expect(loadConfig({ root: "/r" }, { PKS_QUERY_THREADS: "0" }).queryThreads).toBe(0);
    expect(loadConfig({ root: "/r" }, { PKS_QUERY_THREADS: "4" }).queryThreads).toBe(4);
    expect(() => loadConfig({ root: "/r" }, { PKS_QUERY_THREADS: "-1" })).toThrow(/invalid configuration: queryThreads/);
    expect(() => loadConfig({ root: "/r" }, { PKS_QUERY_THREADS: "two" })).toThrow(/invalid configuration: queryThreads/);
  });

  it("refuses bad values with a clear message", () => {
    expect(() => loadConfig({ root: "/r", port: "http" }, {})).toThrow(/invalid configuration: port/);
    expect(() => loadConfig({ root: "/r", db: "postgres://x" }, {})).toThrow(/PKS_DB_URL/);
    expect(() => loadConfig({ root: "/r" }, { PKS_TOKENIZER: "p50k" })).toThrow(/tokenizer/);
  });
});
