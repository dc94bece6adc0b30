/**
 * Fuzzes `pks mcp` over stdio: after an `initialize`, `lines` generated input
 * lines (random strings, JSON, JSON-RPC-shaped requests, a few fixed oddities)
 * are written to the child's stdin, then a final ping. Returns every line the
 * child wrote to stdout once that ping is answered and the child has exited.
 * The same seed gives the same input lines.
 */
import fc from "fast-check";
import { spawnPks } from "./spawn-pks.js";

export async function fuzzStdio(root: string, options: { seed: number; lines: number }): Promise<string[]> {
  const line = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.json({ maxDepth: 4 }),
    fc.record({ jsonrpc: fc.constant("2.0"), id: fc.integer(), method: fc.string({ maxLength: 30 }), params: fc.jsonValue() }).map((v) => JSON.stringify(v)),
    fc.constantFrom('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', '{"jsonrpc":"2.0","id":2,"method":"ping"}', "{", "\u0000\u0001", "[]"),
  );
  const lines = fc.sample(line, { numRuns: options.lines, seed: options.seed }).map((l) => l.replace(/[\r\n]/g, " "));
  const init = JSON.stringify({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } },
  });
  const child = spawnPks(["mcp", "--root", root]);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let out = "";
  const answeredLast = new Promise<void>((resolve) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString("utf8");
      if (out.includes('"id":"last"')) resolve();
    });
  });
  child.stdin.write(`${init}\n`);
  for (const l of lines) child.stdin.write(`${l}\n`);
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: "last", method: "ping" })}\n`);
  // A child that dies before answering fails the run at once instead of waiting for the timeout.
  await Promise.race([
    answeredLast,
    exited.then((code) => {
      throw new Error(`pks mcp exited with ${String(code)} before answering the last ping (seed ${options.seed})`);
    }),
  ]);
  child.stdin.end();
  await exited;
  return out.split("\n").filter((l) => l.length > 0);
}
