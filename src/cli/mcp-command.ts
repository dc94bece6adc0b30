import { Command } from "commander";
import { ensureLocalProject, localPrincipal } from "../access/local-project.js";
import { loadConfig } from "../config.js";
import { serveStdio } from "../transports/mcp-stdio.js";
import { withApp, withStoreOptions } from "./store-options.js";

/** `pks mcp --root DIR`: MCP over stdio as the local owner; no key needed. */
export function mcpCommand(): Command {
  return withStoreOptions(new Command("mcp").description("serve a folder over MCP stdio (for Claude, Cursor …)")).action(
    async (o) => {
      const config = loadConfig(o);
      await withApp(o, async (app) => {
        const local = await ensureLocalProject(app.deps.db, config.root);
        await serveStdio(app.service, localPrincipal(local), local.projectId);
      }, { worker: true });
    },
  );
}
