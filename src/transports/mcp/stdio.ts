import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "../../access/principal.js";
import type { AnyEndpoint } from "../../core/endpoint.js";
import type { Catalog } from "../../core/catalog.js";
import type { Service } from "../../core/service.js";
import { serverInstructions } from "../../prompts.js";
import { newMcpServer, registerFeatures } from "./server.js";

/** What the stdio server runs requests with, once the app is up: its pipeline, the local owner and the folder's project. */
export interface StdioSession {
  readonly service: Service;
  /** The actions offered as tools (`--tools`). */
  readonly catalog: Catalog;
  /** The most tokens one tool result may hold. */
  readonly maxResultTokens: number;
  readonly endpoints: readonly AnyEndpoint[];
  readonly principal: Principal;
  readonly projectId: string;
}

/**
 * Serves MCP over stdin/stdout as the local owner of one project. Stdout
 * carries JSON-RPC only; logs go to stderr. Resolves when the client closes.
 *
 * A client spawns pks for every session and waits for its `initialize`
 * answer, which needs none of the app: the server answers `initialize` at
 * once, while the caller loads and opens the app, and holds every later
 * message, in order, until `session` resolves and the features are
 * registered (also when the client closes stdin meanwhile). If `session`
 * rejects, the server closes.
 */
export async function serveStdio(session: Promise<StdioSession>): Promise<void> {
  const server = newMcpServer(serverInstructions());
  const transport = new HeldTransport(new StdioServerTransport());
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  const opened = session.then(
    (s) => {
      registerFeatures(server, { service: s.service, catalog: s.catalog, maxResultTokens: s.maxResultTokens, endpoints: s.endpoints, caller: () => ({ principal: s.principal, projectId: s.projectId }) });
      transport.release();
    },
    () => server.close(),
  );
  await closed;
  await opened;
  await server.close();
}

/**
 * A transport that passes `initialize` (answered by the SDK's server itself)
 * on as it comes and holds every other message until
 * {@link HeldTransport.release}, then passes the held ones on in their order.
 */
class HeldTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  #held: Array<{ message: JSONRPCMessage; extra: MessageExtraInfo | undefined }> | undefined = [];

  constructor(private readonly inner: Transport) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const early = "method" in message && message.method === "initialize";
      if (this.#held && !early) this.#held.push({ message, extra });
      else this.onmessage?.(message, extra);
    };
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  release(): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const { message, extra } of held) this.onmessage?.(message, extra);
  }
}
