/**
 * `object_submit` over stdio: the local owner has no key, so the folder's
 * binding is what pks was started with (`--submit-type <schemaId>`). With
 * it, a record is filed and found; without it, the refusal says what is
 * missing, and never speaks of an API key.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureLocalProject } from "../../src/access/local-project.js";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { saveArtifactSchema } from "../../src/records/artifact-schemas.js";
import { pksCommand, REPO_ROOT } from "../support/spawn-pks.js";

async function connect(root: string, extra: string[]): Promise<Client> {
  const c = pksCommand(["mcp", "--root", root, "--no-sync", ...extra]);
  const transport = new StdioClientTransport({ command: c.command, args: c.args, cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? "", PKS_LOG: "silent" }, stderr: "pipe" });
  const client = new Client({ name: "stdio-submit", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

type Envelope = { error: { status: number; code: string; message: string } };

describe("object_submit over stdio", () => {
  let root: string;
  let schemaId: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "pks-stdio-submit-"));
    // The owner makes the folder's artifact schema (as POST /v1/artifact-schemas does) in the folder's own database.
    const app = await createApp(loadConfig({ root }, { PKS_LOG: "silent" }), { startWorker: false });
    try {
      const local = await ensureLocalProject(app.deps.db, root);
      const fields = [{ name: "name", type: "string", required: true }, { name: "score", type: "integer" }];
      schemaId = (await saveArtifactSchema(app.deps.db, { projectId: local.projectId }, { name: "Lead", fields }, app.tools)).schemaId;
    } finally {
      await app.close();
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("with --submit-type: the record is filed under that schema; a mismatch is refused as any key's would be", async () => {
    const client = await connect(root, ["--submit-type", schemaId]);
    try {
      const stored = await client.callTool({ name: "object_submit", arguments: { data: { name: "Ada Lovelace", score: 3 } } });
      expect(stored.isError).toBeFalsy();
      expect((stored.structuredContent as { result: { recordId: string } }).result.recordId).toMatch(/^rec_/);
      const wrong = await client.callTool({ name: "object_submit", arguments: { data: { score: "high" } } });
      expect((wrong.structuredContent as Envelope).error).toMatchObject({ status: 400, code: "record_schema_mismatch" });
    } finally {
      await client.close();
    }
  });

  it("without it: 403 saying what is missing and how to give it, never an API key", async () => {
    const client = await connect(root, []);
    try {
      const refused = await client.callTool({ name: "object_submit", arguments: { data: { name: "Ada" } } });
      expect(refused.isError).toBe(true);
      const { error } = refused.structuredContent as Envelope;
      expect(error).toEqual({
        status: 403,
        code: "no_submit_type",
        message: "no artifact schema is bound for records here: start pks with --submit-type <schemaId> (or PKS_SUBMIT_TYPE)",
      });
      expect(JSON.stringify(refused)).not.toMatch(/API key/i);
    } finally {
      await client.close();
    }
  });
});
