import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadRootConfig } from "../../src/cli/store-options.js";
import { pathWith, readMcpExample, sourceShimFolder } from "../support/mcp-example.js";
import type { StdioEntry } from "../support/mcp-example.js";
import { runCli } from "../support/run-cli.js";

let bin: string;
beforeAll(() => {
  bin = sourceShimFolder();
});
afterAll(() => rmSync(bin, { recursive: true, force: true }));

/** Runs `pks ARGS` (found on PATH) as a child in `cwd` and collects its exit code and output. */
async function pksExit(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn("pks", args, { cwd, env: { PATH: pathWith(bin), PKS_LOG: "silent" } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdin.end();
  const code = await new Promise<number | null>((r) => child.once("exit", r));
  return { code, stdout, stderr };
}


describe("--root names an existing folder", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "pks-root-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("pks mcp on a folder that does not exist exits 1 naming it, and creates nothing", async () => {
    const missing = join(dir, "no-such-project");
    const run = await pksExit(["mcp", "--root", missing], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`pks: not a folder: ${missing} does not exist (--root names the project folder to serve)\n`);
    expect(run.stdout).toBe("");
    expect(existsSync(missing)).toBe(false);
  });

  it("pks serve on a file exits 1 naming it", async () => {
    const file = join(dir, "notes.md");
    writeFileSync(file, "# notes\n");
    const run = await pksExit(["serve", "--root", file, "--port", "0"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`pks: not a folder: ${file} is a file (--root names the project folder to serve)\n`);
    expect(readdirSync(dir)).toEqual(["notes.md"]);
  });

  it("admin commands and pks call refuse a missing root too (in process), leaving no folder behind", async () => {
    const missing = join(dir, "gone");
    await expect(runCli("user", "create", "ada", "--root", missing)).rejects.toThrow(`not a folder: ${missing} does not exist`);
    await expect(runCli("call", "memory_query", "{}", "--root", missing)).rejects.toThrow(`not a folder: ${missing} does not exist`);
    await expect(runCli("ingest", missing)).rejects.toThrow(`not a folder: ${missing} does not exist`);
    expect(existsSync(missing)).toBe(false);
  });
});

describe("an unexpanded ${…} in --root", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "pks-unexpanded-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("the Cursor entry pasted into a client that passes ${workspaceFolder} through: exit 1, said so, nothing created", async () => {
    const cursor = readMcpExample().find((e): e is StdioEntry => e.kind === "stdio" && e.client.startsWith("cursor"))!;
    expect(cursor.args).toContain("${workspaceFolder}");
    const run = await pksExit(cursor.args.slice(), dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'pks: --root "${workspaceFolder}" was not expanded by the client: it passed the ${…} variable through as text. ' +
        "Cursor and VS Code expand ${workspaceFolder}; elsewhere give the folder's absolute path\n",
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("is refused in PKS_ROOT and in --db / PKS_DB_URL as well, by name", () => {
    expect(() => loadRootConfig({}, { PKS_ROOT: "${workspaceFolder}/app" })).toThrow('PKS_ROOT "${workspaceFolder}/app" was not expanded by the client');
    expect(() => loadRootConfig({ root: dir, db: "file:${HOME}/x.db" }, {})).toThrow('--db "file:${HOME}/x.db" was not expanded by the client');
    expect(() => loadRootConfig({ root: dir }, { PKS_DB_URL: "file:${env:DATA}/pks.db" })).toThrow('PKS_DB_URL "file:${env:DATA}/pks.db" was not expanded');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe(".pks/, where the default database lives", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "pks-data-"));
    writeFileSync(join(dir, "README.md"), "# Project\n\nThe project has one page.\n");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is created with a .gitignore of * beside pks.db", async () => {
    await runCli("ingest", dir, "--json");
    expect(existsSync(join(dir, ".pks", "pks.db"))).toBe(true);
    const lines = readFileSync(join(dir, ".pks", ".gitignore"), "utf8").split("\n");
    expect(lines).toContain("*");
  });

  it("never shows in git status of the served folder", async () => {
    const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: dir } });
    git("init", "-q");
    await runCli("ingest", dir, "--json");
    expect(existsSync(join(dir, ".pks", "pks.db"))).toBe(true);
    expect(git("status", "--porcelain", "--untracked-files=all").split("\n").filter(Boolean)).toEqual(["?? README.md"]);
    expect(git("check-ignore", ".pks/pks.db", ".pks/pks.db-wal").split("\n").filter(Boolean)).toEqual([".pks/pks.db", ".pks/pks.db-wal"]);
  });

  it("an existing .pks/ is left as it is, and a --db elsewhere makes no .pks/ in the root", async () => {
    mkdirSync(join(dir, ".pks"));
    await runCli("ingest", dir, "--json");
    expect(readdirSync(join(dir, ".pks")).sort()).not.toContain(".gitignore");
    const other = mkdtempSync(join(tmpdir(), "pks-data-other-"));
    try {
      const db = join(other, "elsewhere", "knowledge.db");
      await runCli("ingest", other, "--json", "--db", `file:${db}`);
      expect(existsSync(db)).toBe(true);
      expect(existsSync(join(other, ".pks"))).toBe(false);
      expect(existsSync(join(other, "elsewhere", ".gitignore"))).toBe(false);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
