import { Command } from "commander";
import { log } from "../logger.js";
import { serveStdio } from "../transports/mcp/stdio.js";
import type { StdioSession } from "../transports/mcp/stdio.js";
import { loadRootConfig, withApp, withStoreOptions } from "./store-options.js";
import { summaryFields } from "./sync-report.js";

/**
 * `pks mcp --root DIR`: MCP over stdio as the local owner; no key needed.
 * The folder is synced and watched alongside (`--no-sync` skips both).
 * `initialize` is answered while the app loads: the app's modules are
 * imported only after the server is listening (see `serveStdio`).
 */
export function mcpCommand(): Command {
  return withStoreOptions(new Command("mcp").description("serve a folder over MCP stdio (for Claude, Cursor …)"))
    .option("--no-sync", "do not read the folder or watch it")
    .option("--tools <profile or names>", "tools offered: all (default), code, or tool names, comma-separated (or PKS_TOOLS)")
    .option("--submit-type <schemaId>", "the artifact schema object_submit files records under (or PKS_SUBMIT_TYPE)")
    .action(async (o) => {
      const config = loadRootConfig(o);
      let open!: (session: StdioSession) => void;
      let fail!: (err: unknown) => void;
      const serving = serveStdio(new Promise<StdioSession>((resolve, reject) => ((open = resolve), (fail = reject))));
      try {
        const [{ ensureLocalProject, localPrincipal }, { watchFolder }] = await Promise.all([
          import("../access/local-project.js"),
          import("../ingest/folder/folder-watch.js"),
        ]);
        await withApp(o, async (app) => {
          const local = await ensureLocalProject(app.deps.db, config.root);
          // Stdout is JSON-RPC only: the sync reports through the stderr log.
          const watch = o.sync === false ? undefined : watchFolder(app, local.projectId, config.root);
          void watch?.firstSync.then((summary) => {
            if (summary) log.info("folder synced", { root: config.root, ...summaryFields(summary) });
          });
          try {
            open({ service: app.service, catalog: app.mcpCatalog, maxResultTokens: config.maxResultTokens, endpoints: app.endpoints, principal: localPrincipal(local, config.submitType ?? null), projectId: local.projectId });
            // The token counter's tables (~0.2 s) load a second after start, once a client's first messages
            // (initialize, tools/list) are answered and before its first packed answer is likely asked for.
            setTimeout(() => app.tools.tokens(""), 1000).unref();
            await serving;
          } finally {
            await watch?.close();
          }
        }, { worker: true });
      } catch (err) {
        fail(err);
        throw err;
      }
    });
}
