import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { PKS_VERSION } from "../../version.js";
import type { McpContext, McpFeature } from "./context.js";
import { toolsFeature } from "./tools.js";

export type { McpCaller, McpContext } from "./context.js";

export interface McpServerOptions extends McpContext {
  instructions: string;
}

/** The features the server offers; each declares its capabilities and registers its handlers. */
const FEATURES: readonly McpFeature[] = [toolsFeature];

/** The `logging` capability is declared whatever else is: clients may set a level from the start. */
const BASE: ServerCapabilities = { logging: {} };

/**
 * An MCP server over the catalog and the graph: one per stdio process or
 * streamable-HTTP session, every request running through the one `Service`
 * pipeline as the session's caller.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const capabilities = FEATURES.reduce<ServerCapabilities>((all, f) => ({ ...all, ...f.capabilities }), BASE);
  const server = new Server({ name: "pks", title: "Project knowledge service", version: PKS_VERSION }, { capabilities, instructions: options.instructions });
  for (const feature of FEATURES) feature.register(server, options);
  return server;
}
