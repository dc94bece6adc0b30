import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exerciseHttp, exerciseStdio, expandEnv, FIXTURE_FACT, fixtureCopy, pathWith, readMcpExample, sourceShimFolder } from "../support/mcp-example.js";
import type { HttpEntry, StdioEntry } from "../support/mcp-example.js";
import { REPO_ROOT } from "../support/spawn-pks.js";

// Each entry of mcp.json.example, started the way its client starts it, with
// `pks` found on PATH (here a shim running this checkout's sources; the soak
// run test/soak/install-pack.test.ts does the same with the packed and
// installed bin).
const entries = readMcpExample();
const stdio = entries.filter((e): e is StdioEntry => e.kind === "stdio");
const http = entries.filter((e): e is HttpEntry => e.kind === "http");

describe("mcp.json.example", () => {
  it("has an entry for Claude Code, Claude Desktop, Cursor, VS Code and HTTP, each starting `pks mcp` by name", () => {
    expect(entries.map((e) => e.client.split(" ")[0])).toEqual(["claude-code", "claude-desktop", "cursor", "vscode", "http"]);
    for (const e of stdio) {
      expect(e.command, e.client).toBe("pks");
      expect(e.args.slice(0, 2), e.client).toEqual(["mcp", "--root"]);
    }
    // Coding agents are offered the code tools only (--tools code); Claude Desktop gets every tool.
    const coding = stdio.filter((e) => e.args.join(" ").endsWith("--tools code")).map((e) => e.client.split(" ")[0]);
    expect(coding).toEqual(["claude-code", "cursor", "vscode"]);
    // Only the clients that expand ${workspaceFolder} are given it.
    const expanding = stdio.filter((e) => e.args.some((a) => a.includes("${"))).map((e) => e.client.split(" ")[0]);
    expect(expanding).toEqual(["cursor", "vscode"]);
    expect(http).toHaveLength(1);
    expect(http[0]!.url).toBe("http://127.0.0.1:8787/mcp");
    // The key comes from the environment (Claude Code expands `${NAME}` in headers), never in clear text.
    expect(http[0]!.headers.Authorization).toBe("Bearer ${PKS_API_KEY}");
    expect(expandEnv(http[0]!.headers.Authorization!, { PKS_API_KEY: "pks_k" })).toBe("Bearer pks_k");
  });

  it("the README says how to choose the port beside npm start, and npm pack's tarball is ignored", () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    expect(readme).toMatch(/npm start -- --port \d+/);
    expect(readme).toContain("PKS_PORT=");
    expect(readFileSync(join(REPO_ROOT, ".gitignore"), "utf8").split("\n")).toContain("*.tgz");
  });
});

describe("each entry of mcp.json.example, started as its client would", () => {
  let bin: string;
  let elsewhere: string;
  const folders: string[] = [];
  beforeAll(() => {
    bin = sourceShimFolder();
    elsewhere = mkdtempSync(join(tmpdir(), "pks-elsewhere-"));
  });
  afterAll(() => {
    for (const dir of [bin, elsewhere, ...folders]) rmSync(dir, { recursive: true, force: true });
  });

  it.each(stdio.map((e) => [e.client, e] as const))("%s: initialize, tools/list and memory_query over stdio", async (_client, entry) => {
    const folder = fixtureCopy("pks-install-");
    folders.push(folder);
    const run = await exerciseStdio(entry, folder, pathWith(bin), elsewhere);
    expect(run.serverName).toBe("pks");
    expect(run.tools).toEqual(expect.arrayContaining(["memory_query", "code_context_pack", "code_references"]));
    expect(run.cellTexts).toContain(FIXTURE_FACT);
  });

  it.each(http.map((e) => [e.client, e] as const))("%s: pks serve on a free port, then the entry's URL and header", async (_client, entry) => {
    const folder = fixtureCopy("pks-install-http-");
    folders.push(folder);
    const run = await exerciseHttp(entry, folder, pathWith(bin));
    expect(run.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(run.serverName).toBe("pks");
    expect(run.tools).toContain("memory_query");
    expect(run.cellTexts).toContain(FIXTURE_FACT);
  });
});
