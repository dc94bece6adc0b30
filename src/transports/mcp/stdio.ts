import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Principal } from "../../access/principal.js";
import type { AnyEndpoint } from "../../core/endpoint.js";
import type { Service } from "../../core/service.js";
import { serverInstructions } from "../../prompts.js";
import { createMcpServer } from "./server.js";

/**
 * Serves MCP over stdin/stdout as the local owner of one project. Stdout
 * carries JSON-RPC only; logs go to stderr. Resolves when the client closes.
 */
export async function serveStdio(service: Service, endpoints: readonly AnyEndpoint[], principal: Principal, projectId: string): Promise<void> {
  const server = createMcpServer({ service, endpoints, caller: () => ({ principal, projectId }), instructions: serverInstructions() });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
