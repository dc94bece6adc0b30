import { createHash } from "node:crypto";
import { Worker, threadId } from "node:worker_threads";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { AcceptRequest } from "../../src/ingest/accept/accept-jobs.js";
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

  describe("a large ingest body", () => {
    afterEach(() => vi.restoreAllMocks());

    /** Posts `text` as an ingest body; the status and the answer, and each job the accept thread was posted. */
    async function post(text: string | Uint8Array) {
      const posted = vi.spyOn(Worker.prototype, "postMessage");
      const res = await send(w, `/v1/projects/${w.projectId}/ingest`, { method: "POST", key: w.keys.editor, headers: { "content-type": "application/json" }, body: text });
      const jobs = posted.mock.calls.map(([request, transfer]) => ({ job: (request as AcceptRequest).job, transfer: transfer as ArrayBuffer[] | undefined }));
      posted.mockRestore();
      return { status: res.status, answer: (await res.json()) as Record<string, unknown>, jobs };
    }

    it("reaches the accept thread as its bytes, moved: the serving thread neither decodes nor parses it", async () => {
      const parse = vi.spyOn(JSON, "parse");
      const decode = vi.spyOn(TextDecoder.prototype, "decode");
      const text = JSON.stringify({ files: ENTRIES, intent: "a large call" });
      expect(Buffer.byteLength(text)).toBeGreaterThan(IN_PLACE_BYTES);
      const { status, answer, jobs } = await post(text);
      expect(status).toBe(200);
      expect((answer.accepted as Array<{ path: string }>).map((a) => a.path)).toEqual(["docs/big.md", "notes/secret-ok.txt"]);
      expect(parse.mock.calls.filter(([s]) => typeof s === "string" && s.length > IN_PLACE_BYTES)).toEqual([]);
      expect(decode.mock.calls.filter(([b]) => b !== undefined && (b as ArrayBufferView).byteLength > IN_PLACE_BYTES)).toEqual([]);
      expect(jobs.map((j) => j.job.type)).toEqual(["body"]);
      const job = jobs[0]!.job as { bytes: Uint8Array };
      expect(job.bytes.byteLength).toBe(0); // moved to the thread: detached here
      expect(jobs[0]!.transfer).toHaveLength(1);
      const lease = await send(w, `/v1/projects/${w.projectId}/ingest`, { key: w.keys.viewer });
      expect(((await lease.json()) as { intent: string }).intent).toBe("a large call");
    });

    /** Each bad body small, and the same made large by a field the body does not declare. */
    const PAD = "p".repeat(IN_PLACE_BYTES);
    const entry = { path: "ok.md", content: Buffer.from("# ok\n").toString("base64") };
    const nested = (depth: number): unknown => (depth === 0 ? 1 : [nested(depth - 1)]);
    const BAD: Array<[string, (pad: string) => string | Uint8Array]> = [
      ["not JSON", (pad) => `{"pad": "${pad}", "files": [`],
      ["not UTF-8", (pad) => Buffer.concat([Buffer.from(`{"pad": "${pad}", "files": ["`), Buffer.from([0xff, 0xfe]), Buffer.from(`"]}`)])],
      ["not an object", (pad) => JSON.stringify([pad, entry])],
      ["no files", (pad) => JSON.stringify({ pad })],
      ["an empty files list", (pad) => JSON.stringify({ pad, files: [] })],
      ["files not a list", (pad) => JSON.stringify({ pad, files: "ok.md" })],
      ["an intent too long", (pad) => JSON.stringify({ pad, files: [entry], intent: "i".repeat(2001) })],
      ["an intent holding a credential", (pad) => JSON.stringify({ pad, files: [entry], intent: AWS })],
      ["a __proto__ name", (pad) => `{"pad": "${pad}", "files": [{"__proto__": {}, "path": "ok.md", "content": "${entry.content}"}]}`],
      ["nesting too deep", (pad) => JSON.stringify({ pad, files: [entry], more: nested(120) })],
    ];

    it.each(BAD)("with %s gets the small call's error from the accept thread, and changes nothing", async (_why, body) => {
      const before = await w.app.deps.db.all("SELECT path, status FROM files ORDER BY path");
      const small = await post(body(""));
      expect(small.jobs).toEqual([]);
      expect(small.status).toBe(400);
      const large = await post(body(PAD));
      expect(large.jobs.map((j) => j.job.type)).toEqual(["body"]);
      expect({ status: large.status, answer: large.answer }).toEqual({ status: small.status, answer: small.answer });
      expect(await w.app.deps.db.all("SELECT path, status FROM files ORDER BY path")).toEqual(before);
    });
  });
});
