import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exerciseHttp, exerciseStdio, FIXTURE_FACT, fixtureCopy, pathWith, readMcpExample } from "../support/mcp-example.js";
import type { HttpEntry, StdioEntry } from "../support/mcp-example.js";
import { REPO_ROOT } from "../support/spawn-pks.js";

/**
 * The packed package, installed offline and used through mcp.json.example:
 *
 *   npm pack                                          (build, lockfile shipped as npm-shrinkwrap.json)
 *   tar xzf pks-<v>.tgz; cd package
 *   npm ci --omit=dev --offline --ignore-scripts      (runtime dependencies from the npm cache `npm ci` filled)
 *   npm install -g --offline --ignore-scripts --prefix <tmp> <that folder>
 *
 * then every stdio entry and the HTTP entry run against `<tmp>/bin/pks`.
 * The pack runs on a copy of the checkout, so the checkout's own dist/ is
 * not rewritten. (`npm install -g --offline <tarball>` alone needs the full
 * registry documents of every dependency, which `npm ci` does not cache.)
 */

const PACKAGE_FILES = ["package.json", "package-lock.json", ".npmrc", "tsconfig.json", "tsconfig.build.json", "README.md", "src", "tools", "prompts"];

/** npm's environment without the settings of the `npm run` that started vitest (its cache stays). */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.toLowerCase().startsWith("npm_") || /^npm_config_(cache|userconfig)$/i.test(k)) env[k] = v;
  }
  return env;
}

function npm(args: string[], cwd: string): string {
  try {
    return execFileSync("npm", args, { cwd, env: npmEnv(), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`npm ${args.join(" ")} failed in ${cwd}:\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

describe("npm pack, then an offline install of the tarball", () => {
  let work: string;
  let tarball: string;
  let installed: string;
  let prefix: string;
  const folders: string[] = [];
  const version = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "pks-pack-"));
    const stage = join(work, "checkout");
    mkdirSync(stage);
    for (const f of PACKAGE_FILES) if (existsSync(join(REPO_ROOT, f))) cpSync(join(REPO_ROOT, f), join(stage, f), { recursive: true });
    symlinkSync(join(REPO_ROOT, "node_modules"), join(stage, "node_modules"), "dir");
    const packed = npm(["pack", "--pack-destination", work], stage).trim().split("\n").at(-1)!;
    tarball = join(work, packed);
    expect(existsSync(join(stage, "npm-shrinkwrap.json")), "postpack removes the shipped lockfile copy").toBe(false);

    installed = join(work, "package");
    execFileSync("tar", ["xzf", tarball, "-C", work]);
    npm(["ci", "--omit=dev", "--offline", "--ignore-scripts"], installed);
    prefix = join(work, "prefix");
    npm(["install", "-g", "--offline", "--ignore-scripts", "--prefix", prefix, installed], work);
  }, 300_000);
  // Removing the installed tree (its production node_modules, twice) took over 30 s on a loaded 2-core host.
  afterAll(() => {
    for (const dir of [work, ...folders]) if (dir) rmSync(dir, { recursive: true, force: true });
  }, 180_000);

  it("the tarball holds the built bin with its shebang, the data files and the lockfile, and no tests", () => {
    expect(tarball).toMatch(new RegExp(`pks-${version.replaceAll(".", "\\.")}\\.tgz$`));
    const listing = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" }).split("\n");
    expect(listing).toEqual(expect.arrayContaining(["package/dist/src/main.js", "package/npm-shrinkwrap.json", "package/prompts/instructions.md", "package/src/store/migrations/0001-access.sql"]));
    expect(listing.filter((f) => f.startsWith("package/test/") || f.startsWith("package/node_modules/"))).toEqual([]);
    expect(readFileSync(join(installed, "dist", "src", "main.js"), "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
  });

  it("puts pks on the PATH: <prefix>/bin/pks is the package's dist/src/main.js and prints the version", () => {
    const bin = join(prefix, "bin", "pks");
    expect(realpathSync(bin)).toBe(realpathSync(join(installed, "dist", "src", "main.js")));
    const out = execFileSync("pks", ["--version"], { env: { PATH: pathWith(join(prefix, "bin")) }, encoding: "utf8" });
    expect(out.trim()).toBe(version);
  });

  const entries = readMcpExample();
  const stdio = entries.filter((e): e is StdioEntry => e.kind === "stdio");
  const http = entries.filter((e): e is HttpEntry => e.kind === "http");

  it.each(stdio.map((e) => [e.client, e] as const))("%s, with the installed pks", async (_client, entry) => {
    const folder = fixtureCopy("pks-pack-stdio-");
    folders.push(folder);
    const run = await exerciseStdio(entry, folder, pathWith(join(prefix, "bin")), work);
    expect(run.serverName).toBe("pks");
    expect(run.tools).toContain("memory_query");
    expect(run.cellTexts).toContain(FIXTURE_FACT);
  }, 60_000);

  it.each(http.map((e) => [e.client, e] as const))("%s, with the installed pks serve", async (_client, entry) => {
    const folder = fixtureCopy("pks-pack-http-");
    folders.push(folder);
    const run = await exerciseHttp(entry, folder, pathWith(join(prefix, "bin")));
    expect(run.serverName).toBe("pks");
    expect(run.cellTexts).toContain(FIXTURE_FACT);
  }, 60_000);
});
