import type { Command } from "commander";
import { createApp } from "../app.js";
import type { App } from "../app.js";
import { loadConfig } from "../config.js";
import type { ConfigFlags } from "../config.js";

/** Adds the options every store-touching command shares. */
export function withStoreOptions(cmd: Command): Command {
  return cmd
    .option("--root <dir>", "project folder (default: the current folder)")
    .option("--db <url>", "libSQL URL (default: file:<root>/.pks/pks.db, or PKS_DB_URL)");
}

/**
 * Opens the app for a CLI command, runs `fn`, and always closes it. The
 * reading worker stays off unless asked for: an admin command must not take
 * over the files a running server is reading.
 */
export async function withApp<T>(flags: ConfigFlags, fn: (app: App) => Promise<T>, options: { worker?: boolean } = {}): Promise<T> {
  const app = await createApp(loadConfig(flags), { startWorker: options.worker ?? false });
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
