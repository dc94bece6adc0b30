import type { ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Principal } from "../../access/principal.js";
import type { AnyEndpoint } from "../../core/endpoint.js";
import type { Catalog } from "../../core/catalog.js";
import type { Service } from "../../core/service.js";

/** Who a request runs as, asked afresh on every request. */
export interface McpCaller {
  principal: Principal;
  projectId: string | undefined;
}

/** What every MCP feature is given: the one pipeline, the tools offered, the caller, and the REST endpoints (resources read through them). */
export interface McpContext {
  readonly service: Service;
  /** The actions offered as tools (`--tools`); calls still run through `service`. */
  readonly catalog: Catalog;
  /** The most tokens one tool result may hold as the client receives it (`PKS_MAX_RESULT_TOKENS`). */
  readonly maxResultTokens: number;
  readonly caller: () => McpCaller;
  readonly endpoints: readonly AnyEndpoint[];
}

/**
 * One MCP feature (tools, resources, prompts, …): the capabilities it
 * declares at `initialize` and the request handlers it registers. The server
 * is the list of its features, so adding one is adding its file to the list.
 */
export interface McpFeature {
  readonly capabilities: ServerCapabilities;
  register(server: Server, ctx: McpContext): void;
}
