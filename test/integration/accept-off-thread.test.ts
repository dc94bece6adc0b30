import { createHash } from "node:crypto";
import { threadId } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptAndPack } from "../../src/ingest/accept/accept-files.js";
import type { Acceptance, IncomingFile, PackedFile } from "../../src/ingest/accept/accept-files.js";
import { ACCEPT_YOUNG_MB, IN_PLACE_BYTES, acceptUpload, lastAccept, packUpload } from "../../src/ingest/accept/accept-pool.js";
import { getChunkBytes } from "../../src/store/files/chunks.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

const PROSE = "The payments service settles card charges and retries failed captures twice.\n".repeat(3000);
const AWS = `aws_access_key_id = AKIA${"Q3ZT7WJ4MNXK2PLD"}\n`;
const sha = (b: string | Uint8Array) => `sha256:${createHash("sha256").update(b).digest("hex")}`;

/** A large call whose entries meet every per-file outcome: accepted, credential, repeated path, bad path, bad base64. */
const ENTRIES = [
  fileEntry("docs/big.md", PROSE),
  fileEntry("notes/aws.txt", AWS + PROSE),
  fileEntry("docs/big.md", "again"),
  fileEntry("../outside.md", "x"),
  { path: "bad.txt", content: "!!not base64!!" },
  fileEntry("notes/secret-ok.txt", AWS + PROSE, { includeSecret: true }),
];
const incoming = (): IncomingFile[] => ENTRIES.map((e) => ({ ...e }));

/** Runs `work` while counting the event loop's turns (setImmediate runs once per turn). */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let spinning = true;
  const spin = () => {
    if (!spinning) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  const result = await work();
  spinning = false;
  return { result, turns };
}

/** What two acceptances must agree on, bytes compared by hash. */
const shape = (a: Acceptance<PackedFile>) => ({
  accepted: a.accepted.map((f) => ({ ...f, bytes: sha(f.bytes), stored: { deflated: f.stored.deflated, bytes: sha(f.stored.bytes) } })),
  refused: a.refused,
  refusedFiles: a.refusedFiles,
});

describe("accepting an upload off the serving thread", () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await createTestWorld({ startWorker: false, env: { PKS_RATE_LIMIT: "1000" } });
  });
  afterAll(async () => w.close());

  it("runs a large call's checks, hashes and deflate in another thread while the event loop turns, with the in-place verdicts", async () => {
    expect(ENTRIES.reduce((n, e) => n + String(e.content).length, 0)).toBeGreaterThan(IN_PLACE_BYTES);
    const { result, turns } = await turnsDuring(() => acceptUpload(incoming()));
    expect(lastAccept.threadId).not.toBe(threadId);
    expect(lastAccept.resourceLimits?.maxYoungGenerationSizeMb).toBe(ACCEPT_YOUNG_MB);
    expect(turns).toBeGreaterThan(0);
    expect(shape(result)).toEqual(shape(acceptAndPack(incoming())));
    expect(result.accepted.map((f) => [f.path, f.includeSecret])).toEqual([["docs/big.md", false], ["notes/secret-ok.txt", true]]);
    expect(result.refused.map((r) => r.path)).toEqual(["notes/aws.txt", "docs/big.md", "../outside.md", "bad.txt"]);
  });

  it("runs a small call in place: the event loop does not turn, so the count above tells the two apart", async () => {
    const { turns } = await turnsDuring(() => acceptUpload([{ path: "a.md", content: Buffer.from("# A\n").toString("base64") }]));
    expect(lastAccept.threadId).toBe(threadId);
    expect(turns).toBe(0);
  });

  it("answers a large REST ingest call with the spec's refusals, in order, and stores the bytes read in the thread", async () => {
    const { res, body } = await ingest(w, ENTRIES);
    expect(lastAccept.threadId).not.toBe(threadId);
    expect(res.status).toBe(200);
    expect(body.accepted.map((a) => a.path)).toEqual(["docs/big.md", "notes/secret-ok.txt"]);
    expect(body.refused).toEqual([
      { path: "notes/aws.txt", reason: "looks like a credential (rule aws-access-key-id, line 1); name this path with includeSecret to read it" },
      { path: "docs/big.md", reason: "path appears more than once in this call" },
      { path: "../outside.md", reason: expect.stringMatching(/\S/) },
      { path: "bad.txt", reason: "content is not valid base64" },
    ]);
    const stored = await getChunkBytes(w.app.db, w.projectId, sha(PROSE));
    expect(Buffer.from(stored!).toString()).toBe(PROSE);
  });

  it("hashes a large chunk upload in the thread and still refuses a mismatched id", async () => {
    const text = `${PROSE}chunk\n`;
    const packed = await packUpload(Buffer.from(text));
    expect(lastAccept.threadId).not.toBe(threadId);
    expect(packed.chunkId).toBe(sha(text));
    const base = `/v1/projects/${w.projectId}/chunks`;
    const wrong = await send(w, `${base}/${sha("other")}`, { method: "PUT", key: w.keys.editor, body: text });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toBe("chunk id does not match the bytes");
    const put = await send(w, `${base}/${sha(text)}`, { method: "PUT", key: w.keys.editor, body: text });
    expect(await put.json()).toEqual({ chunkId: sha(text), size: Buffer.byteLength(text) });
  });
});
