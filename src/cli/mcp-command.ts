import { Command } from "commander";
import { ensureLocalProject, localPrincipal } from "../access/local-project.js";
import { watchFolder } from "../ingest/folder/folder-watch.js";
import { log } from "../logger.js";
import { serveStdio } from "../transports/mcp/stdio.js";
import { loadRootConfig, withApp, withStoreOptions } from "./store-options.js";
import { summaryFields } from "./sync-report.js";

/**
 * `pks mcp --root DIR`: MCP over stdio as the local owner; no key needed.
 * The folder is synced and watched alongside (`--no-sync` skips both).
 */
export function mcpCommand(): Command {
  return withStoreOptions(new Command("mcp").description("serve a folder over MCP stdio (for Claude, Cursor …)"))
    .option("--no-sync", "do not read the folder or watch it")
    .action(async (o) => {
      const config = loadRootConfig(o);
      await withApp(o, async (app) => {
        const local = await ensureLocalProject(app.deps.db, config.root);
        // Stdout is JSON-RPC only: the sync reports through the stderr log.
        const watch = o.sync === false ? undefined : watchFolder(app, local.projectId, config.root);
        void watch?.firstSync.then((summary) => {
          if (summary) log.info("folder synced", { root: config.root, ...summaryFields(summary) });
        });
        try {
          await serveStdio(app.service, app.endpoints, localPrincipal(local), local.projectId);
        } finally {
          await watch?.close();
        }
      }, { worker: true });
    });
}
