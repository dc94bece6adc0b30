/**
 * The credential scan end to end, on every path in: an ingest call (bytes
 * scanned with references and escapes decoded) and the reading (what the
 * readers make of a Word document, a compressed PDF, or bytes brought by
 * content replacement). A hit fails the file with rule and line, leaves no
 * derived text, and drops the bytes.
 */
import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { actions } from "../../tools/index.js";
import { buildDocx } from "../support/docx-fixture.js";
import { compressedPdf } from "../support/pdf-fixture.js";
import { fileEntry, ingest, liveCells } from "../support/ingest-helpers.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";
import { randomString, seededRandom } from "../fixtures/secrets/adversarial-input.js";

const random = seededRandom(31337);
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const ghp = ["gh", "p"].join("");

/** The body of a GitHub token after its `ghp_`: 30 random base62 characters and their CRC32 in 6 base62 digits. */
function githubTokenBody(): string {
  const entropy = randomString(random, BASE62, 30);
  let check = "";
  for (let v = crc32(entropy); v > 0; v = Math.floor(v / 62)) check = BASE62[v % 62] + check;
  return entropy + check.padStart(6, "0");
}

const sha = (bytes: string | Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;


describe("the credential scan on every path in", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await createTestWorld({ actions, env: { PKS_RATE_LIMIT: "100000" } });
  });
  afterEach(async () => w.close());

  const db = () => w.app.deps.db;
  const base = () => `/v1/projects/${w.projectId}`;
  const fileRow = (fileId: string) =>
    db().get<{ status: string; error: string | null; include_secret: number; chunk_id: string }>(
      "SELECT status, error, include_secret, chunk_id FROM files WHERE file_id = ?",
      [fileId],
    );
  const hasChunk = async (chunkId: string) => (await db().get("SELECT 1 AS x FROM chunks WHERE chunk_id = ?", [chunkId])) !== undefined;
  /** Cells and factions, live or retired, whose text holds `needle`. */
  const textsHolding = async (needle: string) =>
    Number((await db().get<{ n: number }>("SELECT count(*) AS n FROM cells WHERE instr(text, ?) > 0", [needle]))?.n) +
    Number((await db().get<{ n: number }>("SELECT count(*) AS n FROM factions WHERE instr(text, ?) > 0", [needle]))?.n);
  const memoryQuery = async (query: string) =>
    JSON.stringify(
      await (
        await send(w, "/v1/api/actions", { method: "POST", key: w.keys.viewer, project: w.projectId, json: { action: "memory_query", input: { query } } })
      ).json(),
    );

  it("refuses at ingest a token spelled with an HTML reference or a JSON escape, naming rule and line", async () => {
    const html = `<html><body>\n<h1>Deploy</h1>\n<p>key <code>${ghp}&#95;${githubTokenBody()}</code></p>\n</body></html>\n`;
    const json = `{\n  "deploy": {\n    "token": "${ghp}\\u005f${githubTokenBody()}"\n  }\n}\n`;
    const { body } = await ingest(w, [fileEntry("site/deploy.html", html), fileEntry("ci/deploy.json", json)]);
    expect(body.accepted).toEqual([]);
    expect(Object.fromEntries(body.refused.map((r) => [r.path, r.reason]))).toEqual({
      "site/deploy.html": "looks like a credential (rule github-token, line 3); name this path with includeSecret to read it",
      "ci/deploy.json": "looks like a credential (rule github-token, line 3); name this path with includeSecret to read it",
    });
  });

  it("a Markdown file with a NUL byte is binary to the reader, but its bytes are scanned as text: refused, nothing of it stored", async () => {
    const body = githubTokenBody();
    const { body: answer } = await ingest(w, [fileEntry("notes/keys.md", `# Keys\n\nintro\u0000\n\nkey ${ghp}_${body}\n`)]);
    expect(answer.accepted).toEqual([]);
    expect(answer.refused.map((r) => [r.path, r.reason])).toEqual([
      ["notes/keys.md", "looks like a credential (rule github-token, line 5); name this path with includeSecret to read it"],
    ]);
    await w.app.worker.whenIdle();
    expect(await textsHolding(body)).toBe(0);
  });

  it("stores includeSecret with the file; content replacement keeps it, a new ingest without it clears it", async () => {
    const text = `token = "${ghp}_${githubTokenBody()}"\n`;
    const { body } = await ingest(w, [fileEntry("ops/token.txt", text, { includeSecret: true })]);
    const fileId = body.accepted[0]!.fileId;
    expect((await fileRow(fileId))?.include_secret).toBe(1);
    await w.app.worker.whenIdle();
    const next = `${text}# rotated\n`;
    expect((await send(w, `${base()}/chunks/${sha(next)}`, { method: "PUT", key: w.keys.editor, body: next })).status).toBe(200);
    const replaced = await send(w, `${base()}/files/${fileId}/content`, { method: "PUT", key: w.keys.editor, json: { chunkId: sha(next) } });
    expect(replaced.status).toBe(200);
    expect((await fileRow(fileId))?.include_secret).toBe(1);
    await w.app.worker.whenIdle();
    await ingest(w, [fileEntry("ops/token.txt", "no token here\n")]);
    expect((await fileRow(fileId))?.include_secret).toBe(0);
  });

  it("content replacement of a file ingested with includeSecret is read as usual", async () => {
    const { body } = await ingest(w, [fileEntry("ops/token.md", "# Token\n\nRotated monthly.\n", { includeSecret: true })]);
    const fileId = body.accepted[0]!.fileId;
    await w.app.worker.whenIdle();
    const tokenBody = githubTokenBody();
    const next = `# Token\n\nRotated monthly.\n\nCurrent: ${ghp}_${tokenBody}\n`;
    await send(w, `${base()}/chunks/${sha(next)}`, { method: "PUT", key: w.keys.editor, body: next });
    await send(w, `${base()}/files/${fileId}/content`, { method: "PUT", key: w.keys.editor, json: { chunkId: sha(next) } });
    await w.app.worker.whenIdle();
    expect((await fileRow(fileId))?.status).toBe("ready");
    expect(await textsHolding(tokenBody)).toBeGreaterThan(0);
  });

  // The cases below are caught in the reading thread: the bytes are scanned
  // before reading and everything the reader produced after; a hit fails the
  // file, stores no reading and drops its bytes.

  it("a Word document with a token: read, failed with the rule, no text stored, its chunk deleted", async () => {
    const body = githubTokenBody();
    const bytes = buildDocx([{ kind: "p", text: "Release" }, { kind: "p", text: `CI pushes with ${ghp}_${body}.` }]);
    const { body: answer } = await ingest(w, [fileEntry("docs/release.docx", bytes)]);
    expect(answer.accepted.map((a) => a.path)).toEqual(["docs/release.docx"]);
    await w.app.worker.whenIdle();
    const row = await fileRow(answer.accepted[0]!.fileId);
    expect(row).toMatchObject({ status: "failed", error: "looks like a credential (rule github-token); name this path with includeSecret to read it" });
    expect(await textsHolding(body)).toBe(0);
    expect(await hasChunk(sha(bytes))).toBe(false);
    expect(await memoryQuery("CI pushes release")).not.toContain(body);
  });

  it("a compressed PDF with a token: failed with rule and page, no text stored, its chunk deleted", async () => {
    const body = githubTokenBody();
    const bytes = compressedPdf([["Runbook"], ["Deploying", `export GITHUB_TOKEN=${ghp}_${body}`]]);
    const { body: answer } = await ingest(w, [fileEntry("ops/runbook.pdf", bytes)]);
    await w.app.worker.whenIdle();
    expect(await fileRow(answer.accepted[0]!.fileId)).toMatchObject({
      status: "failed",
      error: "looks like a credential (rule github-token, page 2); name this path with includeSecret to read it",
    });
    expect(await textsHolding(body)).toBe(0);
    expect(await hasChunk(sha(bytes))).toBe(false);
  });

  it("content replacement through an uploaded chunk: failed at reading with the line, the chunk deleted, no cell holds the token", async () => {
    const { body } = await ingest(w, [fileEntry("docs/setup.md", "# Setup\n\nRun the installer.\n")]);
    const fileId = body.accepted[0]!.fileId;
    await w.app.worker.whenIdle();
    const tokenBody = githubTokenBody();
    const next = `# Setup\n\nRun the installer.\n\nThen export GH_TOKEN=${ghp}_${tokenBody} and push.\n`;
    expect((await send(w, `${base()}/chunks/${sha(next)}`, { method: "PUT", key: w.keys.editor, body: next })).status).toBe(200);
    const replaced = await send(w, `${base()}/files/${fileId}/content`, { method: "PUT", key: w.keys.editor, json: { chunkId: sha(next) } });
    expect(replaced.status).toBe(200);
    await w.app.worker.whenIdle();
    expect(await fileRow(fileId)).toMatchObject({
      status: "failed",
      error: "looks like a credential (rule github-token, line 5); name this path with includeSecret to read it",
    });
    expect(await textsHolding(tokenBody)).toBe(0);
    expect(await hasChunk(sha(next))).toBe(false);
    expect(await memoryQuery("export GH_TOKEN push")).not.toContain(tokenBody);
  });

  it("a re-ingest of the same bytes without includeSecret reads the file again and fails it", async () => {
    const body = githubTokenBody();
    const bytes = buildDocx([{ kind: "p", text: `Deploy token ${ghp}_${body}` }]);
    const first = await ingest(w, [fileEntry("ops/deploy.docx", bytes, { includeSecret: true })]);
    const fileId = first.body.accepted[0]!.fileId;
    await w.app.worker.whenIdle();
    expect((await fileRow(fileId))?.status).toBe("ready");
    expect(await textsHolding(body)).toBeGreaterThan(0);
    await ingest(w, [fileEntry("ops/deploy.docx", bytes)]);
    await w.app.worker.whenIdle();
    expect(await fileRow(fileId)).toMatchObject({ status: "failed", include_secret: 0 });
    expect(await textsHolding(body)).toBe(0);
    expect(await hasChunk(sha(bytes))).toBe(false);
  });
});
