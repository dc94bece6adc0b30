import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ActionDescription } from "../core/catalog.js";
import type { Principal } from "../access/principal.js";
import type { Service } from "../core/service.js";
import { toAppError } from "../errors.js";
import { PKS_VERSION } from "../version.js";

/** Who a tool call runs as, asked afresh on every call. */
export interface McpCaller {
  principal: Principal;
  projectId: string | undefined;
}

export interface McpServerOptions {
  service: Service;
  caller: () => McpCaller;
  instructions: string;
}

/**
 * An MCP server whose tools are the action catalog. `tools/call` runs through
 * the same `Service.invoke` as REST, so results and errors carry the same
 * JSON: `structuredContent` is exactly the REST body.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const { service } = options;
  const server = new Server(
    { name: "pks", title: "Project knowledge service", version: PKS_VERSION },
    { capabilities: { tools: { listChanged: false }, logging: {} }, instructions: options.instructions },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: service.catalog.describe().map(toTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    const { principal, projectId } = options.caller();
    try {
      const body = await service.invoke(principal, { action: req.params.name, input: req.params.arguments ?? {}, projectId });
      return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: { ...body } };
    } catch (err) {
      const envelope = toAppError(err).toEnvelope();
      return { isError: true, content: [{ type: "text", text: JSON.stringify(envelope) }], structuredContent: envelope };
    }
  });
  return server;
}

function toTool(a: ActionDescription): Tool {
  return {
    name: a.name,
    title: a.title,
    description: a.description,
    inputSchema: a.inputSchema as Tool["inputSchema"],
    annotations: { title: a.title, readOnlyHint: a.readOnly, openWorldHint: false },
    _meta: { "pks/family": a.family, "pks/version": a.version, "pks/access": a.access, "pks/detached": a.detached },
  };
}
