/**
 * Nothing indexable is dropped silently: a file refused for a credential is
 * listed with its reason in the ingest status, the console overview and the
 * `files` read (never `ready`, never absent), and source whose docstrings
 * hold credential-shaped examples is read like any other source.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CodeReferenceItem } from "../../src/graph/resources.js";
import { actions } from "../../tools/index.js";
import { ADDRESS_PY, HIDDEN_TEXT_PY } from "../fixtures/secrets/docstring-examples.js";
import { Client } from "../support/console-client.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

/** Split literals: this file itself holds no credential-shaped line. */
const KEY_LINE = `aws_access_key_id = AKIA${"R7PW2KD9XMQ4TZLB"}\n`;

interface FileResource {
  fileId: string;
  status: string;
  error?: string | null;
  filepath: string;
  name: string;
}

describe("refused files are listed, credential-shaped examples are read", () => {
  let w: TestWorld;
  let reason: string;
  let refusedId: string;

  beforeAll(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
    const { res, body } = await ingest(w, [
      fileEntry("deploy/prod.ini", `[default]\n${KEY_LINE}`),
      fileEntry("shop/address.py", ADDRESS_PY),
      fileEntry("shop/types.py", HIDDEN_TEXT_PY),
    ]);
    expect(res.status).toBe(200);
    expect(body.accepted.map((a) => a.path)).toEqual(["shop/address.py", "shop/types.py"]);
    expect(body.refused).toEqual([{ path: "deploy/prod.ini", reason: expect.stringMatching(/^looks like a credential \(rule aws-access-key-id, line 2\)/) }]);
    reason = body.refused[0]!.reason;
    await w.app.worker.whenIdle();
  });
  afterAll(async () => w.close());

  it("the files read lists the refused file as failed with its reason", async () => {
    const res = await send(w, `/v1/projects/${w.projectId}/files?status=failed`, { key: w.keys.viewer });
    const rows = (await res.json()) as FileResource[];
    expect(rows.map((f) => [f.filepath, f.name, f.status, f.error])).toEqual([["deploy", "prod.ini", "failed", reason]]);
    refusedId = rows[0]!.fileId;
    const all = (await (await send(w, `/v1/projects/${w.projectId}/files`, { key: w.keys.viewer })).json()) as FileResource[];
    expect(all.map((f) => `${f.name} ${f.status}`).sort()).toEqual(["address.py ready", "prod.ini failed", "types.py ready"]);
  });

  it("the ingest status counts it as failed and names it with its reason", async () => {
    const lease = (await (await send(w, `/v1/projects/${w.projectId}/ingest`, { key: w.keys.viewer })).json()) as { files: Record<string, number> };
    expect(lease.files).toEqual({ queued: 0, reading: 0, ready: 2, failed: 1 });
    const res = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action: "ingest_status", input: {} } });
    const status = (await res.json()) as { result: { failedFiles: Array<{ fileId: string; path: string; error: string }> } };
    expect(status.result.failedFiles).toEqual([{ fileId: refusedId, path: "deploy/prod.ini", error: reason }]);
  });

  it("the console overview lists it under failed files with its reason", async () => {
    const viewer = new Client(w);
    expect((await viewer.signIn(w.keys.viewer)).status).toBe(303);
    const overview = (await viewer.get(`/p/${w.projectId}`)).text;
    expect(overview).toContain("<dt>Failed</dt><dd>1</dd>");
    expect(overview).toContain(`<td><a href="/p/${w.projectId}/files/${refusedId}">deploy/prod.ini</a></td><td>${reason}</td>`);
  });

  it.each([
    ["Address", "shop/address.py"],
    ["HiddenText", "shop/types.py"],
  ])("the class %s documented with a credential-shaped example is read and found", async (symbol, path) => {
    const res = await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action: "code_references", input: { query: symbol } } });
    const { result } = (await res.json()) as { result: { references: CodeReferenceItem[] } };
    expect(result.references.find((r) => r.kind === "declaration" && r.symbol === symbol)?.filepath).toBe(path);
  });
});
