import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import type { App } from "../app.js";
import { loadConfig } from "../config.js";
import type { Config, ConfigFlags } from "../config.js";

/** Adds the options every store-touching command shares. */
export function withStoreOptions(cmd: Command): Command {
  return cmd
    .option("--root <dir>", "project folder (default: the current folder)")
    .option("--db <url>", "libSQL URL (default: file:<root>/.pks/pks.db, or PKS_DB_URL)");
}

/**
 * The configuration a CLI command runs on, after the checks that keep it
 * from serving the wrong folder or leaving its database where git sees it:
 *
 * - a `${…}` left in `--root` or `--db` (or `PKS_ROOT`, `PKS_DB_URL`) is
 *   refused: the MCP client that started pks did not expand it, and taken
 *   as text it would name a folder called `${workspaceFolder}`;
 * - the root must be an existing folder: a mistyped path is an error
 *   naming it, not a new empty project;
 * - the folder of an embedded database named `.pks` (the default,
 *   `<root>/.pks/pks.db`) is created with a `.gitignore` of `*`, so the
 *   database never shows in `git status`.
 *
 * Throws an Error whose message the CLI prints as `pks: …` (exit 1).
 */
export function loadRootConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv = process.env): Config {
  refuseUnexpanded(flags.root !== undefined ? "--root" : "PKS_ROOT", flags.root ?? env.PKS_ROOT);
  refuseUnexpanded(flags.db !== undefined ? "--db" : "PKS_DB_URL", flags.db ?? env.PKS_DB_URL);
  const config = loadConfig(flags, env);
  const stat = statSync(config.root, { throwIfNoEntry: false });
  if (!stat) throw new Error(`not a folder: ${config.root} does not exist (--root names the project folder to serve)`);
  if (!stat.isDirectory()) throw new Error(`not a folder: ${config.root} is a file (--root names the project folder to serve)`);
  prepareDataFolder(config.dbUrl);
  return config;
}

function refuseUnexpanded(name: string, value: string | undefined): void {
  if (value === undefined || !/\$\{[^}]*\}/.test(value)) return;
  throw new Error(
    `${name} "${value}" was not expanded by the client: it passed the \${…} variable through as text. ` +
      "Cursor and VS Code expand ${workspaceFolder}; elsewhere give the folder's absolute path",
  );
}

/** Creates `.pks/` (or any database folder of that name) with a `.gitignore` that ignores everything in it. */
function prepareDataFolder(dbUrl: string): void {
  if (!dbUrl.startsWith("file:") || dbUrl.startsWith("file::memory:")) return;
  const path = dbUrl.startsWith("file://") ? fileURLToPath(dbUrl) : dbUrl.slice("file:".length).split("?")[0]!;
  const folder = dirname(path);
  if (basename(folder) !== ".pks" || existsSync(folder)) return;
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, ".gitignore"), "# pks's database and its journals: never committed\n*\n");
}

/**
 * Opens the app for a CLI command (on `loadRootConfig(flags)`), runs `fn`,
 * and always closes it. The reading worker stays off unless asked for: an
 * admin command must not take over the files a running server is reading.
 */
export async function withApp<T>(flags: ConfigFlags, fn: (app: App) => Promise<T>, options: { worker?: boolean } = {}): Promise<T> {
  // Imported here, not above: a command loads the app only when it runs (`pks mcp` answers `initialize` first).
  const { createApp } = await import("../app.js");
  const app = await createApp(loadRootConfig(flags), { startWorker: options.worker ?? false });
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

/** Prints a value as JSON on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
