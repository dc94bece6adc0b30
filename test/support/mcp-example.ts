import { spawn } from "node:child_process";
import { chmodSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { REPO_ROOT } from "./spawn-pks.js";

/**
 * The entries of `mcp.json.example`, and a client that uses one the way
 * its MCP client would: the same command and arguments, `pks` looked up on
 * PATH, `${workspaceFolder}` expanded where the client expands it.
 */

/** The folder the example entries are tried on: a README and one TypeScript file. */
export const INSTALL_FIXTURE = join(REPO_ROOT, "test", "fixtures", "install");

/** A sentence of the fixture's README that memory_query must find once the folder is read. */
export const FIXTURE_FACT = "The lighthouse keeper winds the lamp clockwork every evening at dusk.";

/** The placeholder the Claude Desktop entry holds for the project folder. */
const PROJECT_PLACEHOLDER = "/path/to/your/project";

export interface StdioEntry {
  readonly client: string;
  readonly kind: "stdio";
  readonly command: string;
  readonly args: readonly string[];
}

export interface HttpEntry {
  readonly client: string;
  readonly kind: "http";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

export type ExampleEntry = StdioEntry | HttpEntry;

interface ServerBlock {
  type?: string;
  command?: string;
  args?: string[];
  url?: string;
  headers?: Record<string, string>;
}

/** Reads `mcp.json.example`: one entry per client, each the `pks` server of its config file. */
export function readMcpExample(path = join(REPO_ROOT, "mcp.json.example")): ExampleEntry[] {
  const file = JSON.parse(readFileSync(path, "utf8")) as Record<string, { mcpServers?: Record<string, ServerBlock>; servers?: Record<string, ServerBlock> }>;
  return Object.entries(file).map(([client, config]): ExampleEntry => {
    const server = (config.mcpServers ?? config.servers)?.pks;
    if (!server) throw new Error(`${client}: no "pks" server under mcpServers or servers`);
    if (server.url !== undefined) return { client, kind: "http", url: server.url, headers: server.headers ?? {} };
    if (server.command === undefined) throw new Error(`${client}: neither command nor url`);
    return { client, kind: "stdio", command: server.command, args: server.args ?? [] };
  });
}

/**
 * The arguments and working folder the client would start the entry with
 * for `folder`: `${workspaceFolder}` (Cursor, VS Code) and the Claude
 * Desktop placeholder become the folder; `.` stays `.` and the server runs
 * in the folder, as Claude Code starts project servers. Any other entry
 * runs from an unrelated folder, so the root can only come from its args.
 */
export function launchOf(entry: StdioEntry, folder: string, elsewhere: string): { args: string[]; cwd: string } {
  const args = entry.args.map((a) => a.replaceAll("${workspaceFolder}", folder).replace(PROJECT_PLACEHOLDER, folder));
  return { args, cwd: entry.args.includes(".") ? folder : elsewhere };
}

/** A copy of the fixture folder in a fresh temp folder (the server writes `.pks/` into it). */
export function fixtureCopy(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(INSTALL_FIXTURE, dir, { recursive: true });
  return dir;
}

/**
 * A folder holding an executable `pks` that runs this checkout's sources
 * (the test run's JavaScript copy of them, test/support/thread-build.ts, or
 * else through tsx, whichever folder it is started from), for PATH.
 */
export function sourceShimFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "pks-bin-"));
  const loader = join(REPO_ROOT, "node_modules", "tsx", "dist", "loader.mjs");
  const copy = process.env.PKS_THREAD_BUILD;
  const run = copy ? `"${join(copy, "src", "main.js")}"` : `--import "file://${loader}" "${join(REPO_ROOT, "src", "main.ts")}"`;
  const script = `#!/bin/sh\nexec "${process.execPath}" ${run} "$@"\n`;
  writeFileSync(join(dir, "pks"), script);
  chmodSync(join(dir, "pks"), 0o755);
  return dir;
}

/** PATH with `binFolder` first, and the folder of this node (the bin's shebang needs `node`). */
export function pathWith(binFolder: string): string {
  return [binFolder, join(process.execPath, ".."), process.env.PATH ?? ""].join(delimiter);
}

export interface Exercise {
  serverName: string | undefined;
  tools: string[];
  /** The texts of the cells memory_query returned for the fixture's question. */
  cellTexts: string[];
}

/**
 * Starts a stdio entry as its client would and speaks MCP to it: initialize,
 * tools/list, and — once the server's log says the folder is synced — one
 * memory_query about the fixture.
 */
export async function exerciseStdio(entry: StdioEntry, folder: string, path: string, elsewhere: string): Promise<Exercise> {
  const launch = launchOf(entry, folder, elsewhere);
  const transport = new StdioClientTransport({ command: entry.command, args: launch.args, cwd: launch.cwd, env: { PATH: path }, stderr: "pipe" });
  let log = "";
  transport.stderr?.on("data", (d: Buffer) => {
    log += d.toString();
  });
  const client = new Client({ name: `install-e2e ${entry.client}`, version: "1.0.0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    await waitFor(() => /"folder synced"/.test(log), 20_000, () => `${entry.client}: the folder was never synced; stderr:\n${log}`);
    return { serverName: client.getServerVersion()?.name, tools: tools.map((t) => t.name), cellTexts: await askFixture(client) };
  } finally {
    await client.close();
  }
}

/**
 * `${NAME}` and `${NAME:-default}` replaced from `env`, as Claude Code
 * expands `.mcp.json` (an unset name without a default stays as written,
 * so a missing variable shows up as a 401, not as an empty key).
 */
export function expandEnv(text: string, env: Readonly<Record<string, string | undefined>>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (whole, name: string, fallback: string | undefined) => env[name] ?? fallback ?? whole);
}

/**
 * Starts `pks serve` on `folder` (a free port), then connects as the HTTP
 * entry says: its URL with the port the server printed, its headers with
 * `${PKS_API_KEY}` expanded to the printed key, as the client expands it
 * from the environment it was started in.
 */
export async function exerciseHttp(entry: HttpEntry, folder: string, path: string): Promise<Exercise & { url: string }> {
  const child = spawn("pks", ["serve", "--root", folder, "--port", "0"], { cwd: folder, env: { PATH: path, PKS_LOG: "silent" } });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    err += d.toString();
  });
  try {
    await waitFor(() => /^\s+synced\s/m.test(out), 20_000, () => `pks serve never synced the folder; stdout:\n${out}\nstderr:\n${err}`);
    const printed = new URL(/MCP\s+(\S+)/.exec(out)![1]!);
    const key = /key\s+(pks_\S+)/.exec(out)![1]!;
    const url = new URL(entry.url);
    url.port = printed.port;
    const headers = Object.fromEntries(Object.entries(entry.headers).map(([k, v]) => [k, expandEnv(v, { PKS_API_KEY: key })]));
    const client = new Client({ name: `install-e2e ${entry.client}`, version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    try {
      const { tools } = await client.listTools();
      return { url: url.href, serverName: client.getServerVersion()?.name, tools: tools.map((t) => t.name), cellTexts: await askFixture(client) };
    } finally {
      await client.close();
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once("exit", r)));
  }
}

async function askFixture(client: Client): Promise<string[]> {
  const call = await client.callTool({ name: "memory_query", arguments: { query: "When does the lighthouse keeper wind the lamp clockwork?" } });
  if (call.isError) throw new Error(`memory_query failed: ${JSON.stringify(call.structuredContent)}`);
  const body = call.structuredContent as { result: { cells: { text: string }[] } };
  return body.result.cells.map((c) => c.text);
}

async function waitFor(ready: () => boolean, timeoutMs: number, why: () => string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > until) throw new Error(why());
    await new Promise((r) => setTimeout(r, 50));
  }
}
