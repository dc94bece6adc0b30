import type { Context } from "hono";
import type { Principal } from "../../access/principal.js";

/** Per-request values set by middleware. */
export interface HttpEnv {
  Variables: {
    principal: Principal;
  };
}

/**
 * The peer's address as Node's server saw it (never a forwarded header,
 * which a client could write), or undefined when the request did not come
 * through a socket (tests, an embedding).
 */
export function peerAddress(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress;
}
