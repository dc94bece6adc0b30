import type { Socket } from "node:net";
import { serve } from "@hono/node-server";
import type { ServerType } from "@hono/node-server";
import { AppError } from "../../errors.js";

/**
 * Serves `fetch` on `hostname:port` with Node's HTTP server. Requests Node
 * refuses before any route sees them (a request line or headers over 16 KiB,
 * a malformed request) still get the JSON error envelope, not Node's bare
 * status line.
 */
export function listen(fetch: (req: Request, env?: unknown) => Response | Promise<Response>, hostname: string, port: number): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname, port }, () => resolve(server));
    server.once("error", reject);
    server.on("clientError", (err: NodeJS.ErrnoException, socket: Socket) => refuse(err, socket));
  });
}

function refuse(err: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const e = new AppError(err.code === "HPE_HEADER_OVERFLOW" ? "headers_too_large" : "bad_request");
  const body = JSON.stringify(e.toEnvelope());
  socket.end(
    `HTTP/1.1 ${e.status} ${e.message}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
