import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnPks } from "../support/spawn-pks.js";

interface Answer {
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

const request = (id: number, method: string, params?: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
const INITIALIZE = request(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "startup-test", version: "1" } });

/**
 * Writes `lines` to a fresh `pks mcp` in one go, before any answer, and
 * collects stdout lines until every id in `ids` is answered (then closes
 * stdin) or the process exits.
 */
async function session(args: string[], lines: string[], ids: number[]): Promise<{ answers: Answer[]; code: number | null; stderr: string }> {
  const child = spawnPks(["mcp", ...args]);
  let out = "";
  let stderr = "";
  const answers: Answer[] = [];
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    const parts = out.split("\n");
    out = parts.pop()!;
    for (const line of parts) answers.push(JSON.parse(line) as Answer);
    if (ids.every((id) => answers.some((a) => a.id === id))) child.stdin.end();
  });
  const code = new Promise<number | null>((resolve) => child.once("exit", resolve));
  child.stdin.write(`${lines.join("\n")}\n`);
  return { answers, code: await code, stderr };
}

describe("pks mcp start-up: initialize first, the app behind it", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "pks-startup-"));
    writeFileSync(join(root, "README.md"), "# Demo\n\nA small project.\n");
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("answers requests sent with initialize, before the app was up, in the order sent, none refused", async () => {
    const lines = [
      INITIALIZE,
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      request(2, "tools/list"),
      request(3, "ping"),
      request(4, "tools/call", { name: "no_such_action", arguments: {} }),
    ];
    const { answers, code, stderr } = await session(["--root", root, "--no-sync"], lines, [1, 2, 3, 4]);
    expect(code, stderr).toBe(0);
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3, 4]);
    const [init, list, ping, call] = answers;
    expect(init!.result).toMatchObject({ serverInfo: { name: "pks" }, capabilities: { tools: {} } });
    expect((list!.result!.tools as Array<{ name: string }>).map((t) => t.name)).toContain("memory_query");
    expect(ping!.result).toEqual({});
    // Held until the tools were registered: the tool's own refusal, not "method not found".
    expect(call!.error).toMatchObject({ code: -32602, message: expect.stringContaining('unknown tool "no_such_action"') });
  });

  it("a store that cannot be opened, after initialize was answered: exit 1 with the error, the held request unanswered", async () => {
    const bad = mkdtempSync(join(tmpdir(), "pks-startup-db-"));
    writeFileSync(join(bad, "pks.db"), "not a database\n".repeat(400));
    const { answers, code, stderr } = await session(["--root", root, "--db", `file:${join(bad, "pks.db")}`], [INITIALIZE, request(2, "tools/list")], [1, 2]);
    rmSync(bad, { recursive: true, force: true });
    expect(answers.map((a) => a.id)).toEqual([1]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^pks: /m);
  });
});
