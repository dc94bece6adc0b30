/**
 * `object_submit` is bounded like every other store: a record's size, the
 * project's storage quota (records count with chunks, spam too), a submit
 * key's daily count, and spam that expires. Each refusal names its limit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/access/create-api-key.js";
import { SPAM_KEPT_MS, collectChunks } from "../../src/ingest/accept/storage.js";
import { projectStoredBytes } from "../../src/store/files/chunks.js";
import { actions } from "../../tools/index.js";
import { fileEntry } from "../support/ingest-helpers.js";
import { createTestWorld, fakeClock, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

const QUOTA = 12_000;
const DAILY = 8;

describe("object_submit bounds", () => {
  let w: TestWorld;
  const clock = fakeClock(Date.UTC(2026, 3, 1));
  let submitKey: string;
  let editorKey: string;

  const submit = (key: string, input: unknown) =>
    send(w, "/v1/api/actions", { method: "POST", key, project: w.projectId, json: { action: "object_submit", input } });
  const errorOf = async (res: Response) => ({ status: res.status, ...((await res.json()) as { error: object }).error });
  const recordCount = async () => Number((await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM records"))!.n);

  beforeAll(async () => {
    w = await createTestWorld({
      actions,
      clock,
      env: { PKS_RATE_LIMIT: "100000", PKS_PROJECT_QUOTA_BYTES: String(QUOTA), PKS_SUBMIT_DAILY_MAX: String(DAILY) },
    });
    const saved = await send(w, "/v1/artifact-schemas", {
      method: "POST",
      key: w.keys.editor,
      project: w.projectId,
      json: { name: "Note", fields: [{ name: "body", type: "string", required: true }] },
    });
    expect(saved.status).toBe(201);
    const { schemaId } = (await saved.json()) as { schemaId: string };
    submitKey = (await createApiKey(w.app.db, { userId: w.userIds.viewer, projectId: w.projectId, tier: "submit", boundTypeId: schemaId })).plaintext;
    editorKey = (await createApiKey(w.app.db, { userId: w.userIds.editor, boundTypeId: schemaId })).plaintext;
  });
  afterAll(async () => w.close());

  it("a record over 64 KiB of JSON is 413 naming that limit, spam too, and nothing is stored", async () => {
    const big = "x".repeat(64 * 1024);
    for (const input of [{ data: { body: big } }, { data: { body: big }, honeypot: "bot" }]) {
      expect(await errorOf(await submit(editorKey, input))).toEqual({ status: 413, code: "record_too_large", message: "the record is larger than 64 KiB" });
    }
    expect(await recordCount()).toBe(0);
  });

  it("records count against the project's quota, spam included; past it 413 names the quota", async () => {
    const text = "y".repeat(1500);
    let accepted = 0;
    let refused: Record<string, unknown> | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const res = await submit(editorKey, i % 2 === 0 ? { data: { body: `${i} ${text}` } } : { data: { body: `${i} ${text}` }, honeypot: "bot" });
      if (res.status === 200) accepted++;
      else refused = await errorOf(res);
    }
    expect(accepted).toBeGreaterThan(1);
    expect(refused).toEqual({ status: 413, code: "quota_exceeded", message: "project storage quota exceeded; remove files or raise the quota" });
    const stored = await projectStoredBytes(w.app.db, w.projectId);
    expect(stored).toBeLessThanOrEqual(QUOTA);
    expect(stored).toBeGreaterThan(accepted * 1500);
    // The spam submissions among them count too.
    const spamBytes = Number((await w.app.db.get<{ n: number }>("SELECT coalesce(sum(size), 0) AS n FROM records WHERE spam = 1"))!.n);
    expect(spamBytes).toBeGreaterThan(1500);
    // And the quota they use is the one files use: an upload that would pass it is refused as well.
    const ingest = await send(w, `/v1/projects/${w.projectId}/ingest`, {
      method: "POST",
      key: w.keys.editor,
      json: { files: [fileEntry("notes/a.md", `# A\n\n${"z".repeat(QUOTA - stored + 10)}\n`)] },
    });
    expect(ingest.status).toBe(413);
  });

  it("spam expires with the storage pass after a week; checked records stay", async () => {
    const before = Number((await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM records WHERE spam = 0"))!.n);
    expect(Number((await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM records WHERE spam = 1"))!.n)).toBeGreaterThan(0);
    await collectChunks(w.app.db, clock() + SPAM_KEPT_MS - 60_000);
    expect(Number((await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM records WHERE spam = 1"))!.n)).toBeGreaterThan(0);
    await collectChunks(w.app.db, clock() + SPAM_KEPT_MS + 60_000);
    expect(Number((await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM records WHERE spam = 1"))!.n)).toBe(0);
    expect(Number((await w.app.db.get<{ n: number }>("SELECT count(*) AS n FROM records WHERE spam = 0"))!.n)).toBe(before);
  });

  it("a submit key files at most its daily count, spam included; past it 429 names the limit, and a day later it may again", async () => {
    await w.app.db.execute("DELETE FROM records");
    for (let i = 0; i < DAILY; i++) {
      const res = await submit(submitKey, i % 3 === 0 ? { data: { body: `n${i}` }, honeypot: "bot" } : { data: { body: `n${i}` } });
      expect(res.status).toBe(200);
      clock.advance(60_000);
    }
    const over = await submit(submitKey, { data: { body: "one too many" } });
    expect(await errorOf(over)).toEqual({ status: 429, code: "rate_limited", message: `this key's daily limit of ${DAILY} records is reached` });
    const retry = Number(over.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(24 * 3600);
    // An editor's bound key is not a public form's: no daily count.
    expect((await submit(editorKey, { data: { body: "from the team" } })).status).toBe(200);
    clock.advance(retry * 1000);
    expect((await submit(submitKey, { data: { body: "next day" } })).status).toBe(200);
  });
});
