/**
 * An MCP client talking to the test world's MCP server in memory
 * (`InMemoryTransport`), as the holder of one API key in one project.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { authenticateKey } from "../../src/access/authenticate.js";
import { createMcpServer } from "../../src/transports/mcp/server.js";
import type { TestWorld } from "./test-app.js";

export interface McpClientOptions {
  /** The caller's API key (default: the viewer's). */
  key?: string;
  /** The project the calls go to (default: the world's project). */
  projectId?: string;
  /** The server's instructions (default: none). */
  instructions?: string;
}

/** Connects a fresh client to a fresh server over a linked in-memory pair; close the client when done. */
export async function connectMcpClient(w: TestWorld, options: McpClientOptions = {}): Promise<Client> {
  const principal = await authenticateKey(w.app.deps.db, `Bearer ${options.key ?? w.keys.viewer}`);
  const projectId = options.projectId ?? w.projectId;
  const server = createMcpServer({ service: w.app.service, catalog: w.app.mcpCatalog, maxResultTokens: w.app.deps.config.maxResultTokens, endpoints: w.app.endpoints, caller: () => ({ principal, projectId }), instructions: options.instructions ?? "" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}
