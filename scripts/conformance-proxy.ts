/**
 * A loopback proxy for the MCP conformance suite, whose client cannot send
 * an API key: it adds `Authorization: Bearer <key>` and forwards everything
 * else (Host and Origin included) unchanged, streaming both ways.
 *
 * Usage: node --import tsx scripts/conformance-proxy.ts LISTEN_PORT TARGET_PORT KEY
 */
import { createServer, request } from "node:http";

const [listenPort, targetPort, key] = process.argv.slice(2);
if (!listenPort || !targetPort || !key) {
  process.stderr.write("usage: conformance-proxy LISTEN_PORT TARGET_PORT KEY\n");
  process.exit(2);
}

createServer((req, res) => {
  const upstream = request(
    {
      host: "127.0.0.1",
      port: Number(targetPort),
      method: req.method,
      path: req.url,
      headers: { ...req.headers, authorization: `Bearer ${key}` },
    },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on("error", () => {
    res.writeHead(502).end();
  });
  req.pipe(upstream);
}).listen(Number(listenPort), "127.0.0.1");
