import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { PKS_VERSION } from "../../version.js";
import type { McpContext, McpFeature } from "./context.js";
import { toolsFeature } from "./tools.js";
import { resourcesFeature } from "./resources.js";
import { promptsFeature } from "./prompts.js";
import { completionsFeature } from "./completions.js";
import { loggingFeature } from "./logging.js";

export type { McpCaller, McpContext } from "./context.js";

export interface McpServerOptions extends McpContext {
  instructions: string;
}

/** The features the server offers; each declares its capabilities and registers its handlers. */
const FEATURES: readonly McpFeature[] = [toolsFeature, resourcesFeature, promptsFeature, completionsFeature, loggingFeature];

/** The `logging` capability is declared whatever else is: clients may set a level from the start. */
const BASE: ServerCapabilities = { logging: {} };

/**
 * An MCP server over the catalog and the graph: one per stdio process or
 * streamable-HTTP session, every request running through the one `Service`
 * pipeline as the session's caller.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const server = newMcpServer(options.instructions);
  registerFeatures(server, options);
  return server;
}

/**
 * The server as `initialize` sees it (its name, capabilities and
 * instructions) with no feature's handlers yet: stdio answers `initialize`
 * with it while the app still loads, then calls {@link registerFeatures}.
 */
export function newMcpServer(instructions: string): Server {
  const capabilities = FEATURES.reduce<ServerCapabilities>((all, f) => ({ ...all, ...f.capabilities }), BASE);
  return new Server({ name: "pks", title: "Project knowledge service", version: PKS_VERSION }, { capabilities, instructions });
}

/** Registers every feature's handlers on a server from {@link newMcpServer}. */
export function registerFeatures(server: Server, ctx: McpContext): void {
  for (const feature of FEATURES) feature.register(server, ctx);
}
