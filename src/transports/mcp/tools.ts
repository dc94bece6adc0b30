import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ActionDescription } from "../../core/catalog.js";
import { toAppError } from "../../errors.js";
import type { McpFeature } from "./context.js";

/**
 * Tools are the action catalog. `tools/call` runs through the same
 * `Service.invoke` as REST, so results and errors carry the same JSON:
 * `structuredContent` is exactly the REST body.
 */
export const toolsFeature: McpFeature = {
  capabilities: { tools: { listChanged: false } },
  register(server, { service, caller }) {
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: service.catalog.describe().map(toTool) }));
    server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
      const { principal, projectId } = caller();
      try {
        const body = await service.invoke(principal, { action: req.params.name, input: req.params.arguments ?? {}, projectId });
        return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: { ...body } };
      } catch (err) {
        const envelope = toAppError(err).toEnvelope();
        return { isError: true, content: [{ type: "text", text: JSON.stringify(envelope) }], structuredContent: envelope };
      }
    });
  },
};

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
