/**
 * Honest from the first millisecond: right after `pks mcp --root` starts on
 * a tree that takes seconds to scan, answers carry `indexing` with `total`
 * unknown (null) and `ingest_status` says `scanning`, until the first scan
 * has listed the folder and queued its files; then the counts are real.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pksCommand, REPO_ROOT } from "../support/spawn-pks.js";

/** 200 folders of 12 small TypeScript files each: 2,400 files to walk, hash and store. */
function bigTree(): string {
  const root = mkdtempSync(join(tmpdir(), "pks-first-scan-"));
  for (let d = 0; d < 200; d++) {
    const dir = join(root, "src", `m${d % 20}`, `part${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 12; f++) {
      writeFileSync(join(dir, `f${f}.ts`), `import { compose${f} } from "../../shared";\nexport function compose${d}_${f}(x: number): number {\n  return compose${f}(x) + ${d};\n}\n`);
    }
  }
  return root;
}

type Body<T> = { result: T };

describe("the first scan of a big folder over stdio", () => {
  let root: string;
  beforeAll(() => {
    root = bigTree();
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("code_references right after start carries indexing with total null; ingest_status says scanning, then reading with real counts", async () => {
    const c = pksCommand(["mcp", "--root", root]);
    const transport = new StdioClientTransport({ command: c.command, args: c.args, cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? "", PKS_LOG: "silent" }, stderr: "pipe" });
    const client = new Client({ name: "first-scan", version: "1.0.0" });
    await client.connect(transport);
    try {
      const refs = await client.callTool({ name: "code_references", arguments: { query: "compose" } });
      expect(refs.isError).toBeFalsy();
      const early = (refs.structuredContent as Body<{ indexing?: { ready: number; total: number | null } }>).result;
      expect(early.indexing).toEqual({ ready: expect.any(Number), total: null });

      const status = await client.callTool({ name: "ingest_status", arguments: {} });
      expect((status.structuredContent as Body<{ state: string }>).result.state).toBe("scanning");

      // Once the folder is listed every file is counted: the state moves on and `total` is the folder's.
      let after: { state: string; files: { queued: number; reading: number; ready: number; failed: number } } | undefined;
      const until = Date.now() + 120_000;
      while (Date.now() < until) {
        after = (((await client.callTool({ name: "ingest_status", arguments: {} })).structuredContent) as Body<NonNullable<typeof after>>).result;
        if (after.state !== "scanning") break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(after!.state).not.toBe("scanning");
      const { queued, reading, ready, failed } = after!.files;
      expect(queued + reading + ready + failed).toBe(2400);
      const later = (((await client.callTool({ name: "code_references", arguments: { query: "compose" } })).structuredContent) as Body<{ indexing?: { total: number | null } }>).result;
      if (later.indexing) expect(later.indexing.total).toBe(2400);
    } finally {
      await client.close();
    }
  }, 180_000);
});
