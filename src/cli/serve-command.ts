import { Command } from "commander";
import { createApiKey } from "../access/create-api-key.js";
import { ensureLocalProject } from "../access/local-project.js";
import { createApp } from "../app.js";
import { hasLiveProjectKey } from "../store/access/api-keys.js";
import { watchFolder } from "../ingest/folder/folder-watch.js";
import { log } from "../logger.js";
import { listen } from "../transports/http/listen.js";
import { PKS_VERSION } from "../version.js";
import { loadRootConfig, withStoreOptions } from "./store-options.js";
import { summaryLine } from "./sync-report.js";

/**
 * `pks serve --root DIR`: MCP at /mcp and REST at /v1 on one HTTP server.
 * Once it listens, the folder is synced into its project and watched
 * (`--no-sync` skips both); the summary line follows the address block.
 */
export function serveCommand(): Command {
  return withStoreOptions(new Command("serve").description("serve a folder over HTTP: MCP at /mcp, REST at /v1"))
    .option("--host <host>", "address to bind (default 127.0.0.1, or PKS_HOST)")
    .option("--port <port>", "port (default 8787, or PKS_PORT)")
    .option("--no-sync", "do not read the folder or watch it")
    .option("--tools <profile or names>", "tools MCP offers: all (default), code, or tool names, comma-separated (or PKS_TOOLS)")
    .action(async (o) => {
      const config = loadRootConfig(o);
      const app = await createApp(config);
      const local = await ensureLocalProject(app.deps.db, config.root);
      // The first run mints the owner's key; so does any run that finds none
      // (a first run stopped before it printed one).
      const firstKey = (await hasLiveProjectKey(app.deps.db, local.userId, local.projectId))
        ? undefined
        : await createApiKey(app.deps.db, { userId: local.userId, name: "local owner", projectId: local.projectId });
      // The token counter's tables (~0.2 s) load now rather than in the first packed answer a caller waits for.
      app.tools.tokens("");
      const server = await listen(app.http.fetch, config.host, config.port);
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : config.port;
      const base = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
      const lines = [
        `pks ${PKS_VERSION} serving ${config.root}`,
        `  MCP      ${base}/mcp`,
        `  REST     ${base}/v1`,
        `  console  ${base}/  (sign in with an API key)`,
        `  project  ${local.projectId}`,
        ...(firstKey
          ? [`  key      ${firstKey.plaintext}`, "           (owner key bound to this project, shown this once: keep it)"]
          : ["  key      create one with: pks key create --user local --project " + local.projectId]),
        o.sync === false ? "  sync     off" : "  sync     reading the folder, then watching it",
      ];
      process.stdout.write(`${lines.join("\n")}\n`);
      const watch = o.sync === false ? undefined : watchFolder(app, local.projectId, config.root);
      void watch?.firstSync.then((summary) => {
        if (summary) process.stdout.write(`${summaryLine(summary)}\n`);
      });
      onShutdown(async () => {
        await watch?.close();
        server.close();
        await app.close();
      });
    });
}

/** Closes cleanly on SIGINT/SIGTERM. */
export function onShutdown(close: () => Promise<void>): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info("shutting down", { signal });
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}
