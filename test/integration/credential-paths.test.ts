/**
 * A credential is never stored where it would be listed and shown: not in a
 * file's path (includeSecret or not) and not in an ingest call's intent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileEntry } from "../support/ingest-helpers.js";
import { createTestWorld, send } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

const TOKEN = `ghp_${"Z7q9WmX2kP4vR8tY1nB5cD3fG6hJ0kL2mN4p"}`;

describe("credentials in paths and intents", () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await createTestWorld({ env: { PKS_RATE_LIMIT: "100000" } });
  });
  afterAll(async () => w.close());

  const ingest = (json: unknown) => send(w, `/v1/projects/${w.projectId}/ingest`, { method: "POST", key: w.keys.editor, json });
  const stored = async () =>
    (await w.app.db.all<{ t: string }>("SELECT path AS t FROM files UNION ALL SELECT coalesce(last_intent, '') FROM leases")).map((r) => r.t).join("\n");

  it("a path holding a credential is refused, with includeSecret too; the rest of the call goes in", async () => {
    const res = await ingest({
      files: [fileEntry(`notes/${TOKEN}.md`, "# Hi\n"), fileEntry(`keys/${TOKEN}/a.md`, "# Hi\n", { includeSecret: true }), fileEntry("notes/fine.md", "# Fine\n")],
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { accepted: Array<{ path: string }>; refused: Array<{ path: string; reason: string }> };
    expect(body.accepted.map((a) => a.path)).toEqual(["notes/fine.md"]);
    expect(body.refused.map((r) => r.reason)).toEqual([
      "path looks like a credential (rule github-token); rename the file",
      "path looks like a credential (rule github-token); rename the file",
    ]);
    expect(await stored()).not.toContain(TOKEN);
  });

  it("an intent holding a credential is 400 and nothing is stored", async () => {
    const res = await ingest({ files: [fileEntry("notes/other.md", "# Other\n")], intent: `sync with ${TOKEN}` });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { status: 400, code: "invalid_input", message: "intent looks like a credential; leave it out" } });
    expect(await stored()).not.toContain(TOKEN);
    expect(await stored()).not.toContain("notes/other.md");
  });
});
