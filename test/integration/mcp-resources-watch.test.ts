/**
 * What an open MCP session hears about its project: resource list changes
 * and subscribed resources' updates when files change, reading and failure
 * messages at the session's log level, and the server's log records about
 * its project (never another's).
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  LoggingMessageNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { LoggingMessageNotification } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { log, onLog } from "../../src/logger.js";
import type { LogRecord } from "../../src/logger.js";
import { WATCH_INTERVAL_MS } from "../../src/transports/mcp/watch.js";
import { actions } from "../../tools/index.js";
import { fileEntry, ingest } from "../support/ingest-helpers.js";
import { connectMcpClient } from "../support/mcp-client.js";
import { createTestWorld } from "../support/test-app.js";
import type { TestWorld } from "../support/test-app.js";

type Message = LoggingMessageNotification["params"];
const NOISE = "\u0001\u0002\u0003\u0004".repeat(100);

/** Waits until `ready()` holds, checking every 50 ms, for at most three watch intervals. */
async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 3 * WATCH_INTERVAL_MS + 2_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A connected client and what it has heard so far. */
async function listen(w: TestWorld) {
  const client = await connectMcpClient(w, { key: w.keys.viewer });
  const heard = { listChanged: 0, updated: [] as string[], messages: [] as Message[] };
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    heard.listChanged++;
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    heard.updated.push(n.params.uri);
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    heard.messages.push(n.params);
  });
  // The session's first read of its lease is the baseline changes are told against.
  await new Promise((r) => setTimeout(r, 300));
  return { client, heard };
}

describe("MCP session notifications", () => {
  let w: TestWorld;
  let client: Client | undefined;
  let guideId: string;
  beforeEach(async () => {
    w = await createTestWorld({ actions });
    const { body } = await ingest(w, [fileEntry("docs/guide.md", "# Guide\n\nThe first version.\n")]);
    guideId = body.accepted[0]!.fileId;
    await w.app.worker.whenIdle();
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await w.close();
  });

  it("files changing: resources/list_changed, an update for a subscribed file, and `reading done` with the counts", async () => {
    const session = await listen(w);
    client = session.client;
    const { heard } = session;
    const guideUri = `pks://projects/${w.projectId}/files/${guideId}`;
    const otherUri = `pks://projects/${w.projectId}/ingest`;
    await client.subscribeResource({ uri: guideUri });
    await client.subscribeResource({ uri: `pks://projects/${w.projectId}/files/${guideId}` });
    await expect(client.subscribeResource({ uri: `pks://projects/${w.projectId}/files/fil_nope` })).rejects.toMatchObject({ code: -32002 });

    await ingest(w, [fileEntry("docs/guide.md", "# Guide\n\nThe second version.\n"), fileEntry("docs/new.md", "# New\n\nA new page.\n")]);
    await w.app.worker.whenIdle();
    await until(() => heard.messages.some((m) => (m.data as { event?: string }).event === "reading_done"), "reading done");
    await until(() => heard.updated.includes(guideUri), "the subscribed file's update");
    expect(heard.listChanged).toBeGreaterThanOrEqual(1);
    expect(heard.updated).not.toContain(otherUri);
    const done = heard.messages.find((m) => (m.data as { event?: string }).event === "reading_done")!;
    expect(done).toMatchObject({
      level: "info",
      logger: "pks.ingest",
      data: { event: "reading_done", projectId: w.projectId, version: 2, files: { queued: 0, reading: 0, ready: 2, failed: 0 }, change: { ready: 1, failed: 0 } },
    });
    expect((done.data as { message: string }).message).toBe("reading done (corpus version 2): 2 files ready (+1), 0 failed (+0)");

    // Unsubscribed, the file's next change is not told.
    await client.unsubscribeResource({ uri: guideUri });
    const updates = heard.updated.length;
    const changes = heard.listChanged;
    await ingest(w, [fileEntry("docs/guide.md", "# Guide\n\nThe third version.\n")]);
    await w.app.worker.whenIdle();
    await until(() => heard.listChanged > changes, "a second list change");
    await new Promise((r) => setTimeout(r, WATCH_INTERVAL_MS + 500));
    expect(heard.updated.length).toBe(updates);
  });

  it("a file that fails to read is a warning naming it; at level `warning` no info is sent; an unknown level is -32602", async () => {
    const session = await listen(w);
    client = session.client;
    const { heard } = session;
    await expect(client.setLoggingLevel("loud" as never)).rejects.toMatchObject({
      code: -32602,
      message: "MCP error -32602: params.level must be one of debug, info, notice, warning, error, critical, alert, emergency",
    });
    await client.setLoggingLevel("warning");
    const { body } = await ingest(w, [fileEntry("data/noise.txt", NOISE), fileEntry("docs/fine.md", "# Fine\n\nReadable.\n")]);
    await w.app.worker.whenIdle();
    await until(() => heard.messages.some((m) => m.level === "warning"), "the failure warning");
    const noiseId = body.accepted.find((a) => a.path === "data/noise.txt")!.fileId;
    expect(heard.messages).toEqual([
      {
        level: "warning",
        logger: "pks.ingest",
        data: {
          message: "1 file failed to read: data/noise.txt (file is not text)",
          event: "reading_failed",
          failed: 1,
          files: [{ fileId: noiseId, path: "data/noise.txt", error: "file is not text" }],
        },
      },
    ]);
    // ingest_status names the failed file too, and links it.
    const status = await client.callTool({ name: "ingest_status", arguments: {} });
    expect(status.structuredContent).toMatchObject({
      action: "ingest_status",
      result: { state: "idle", files: { ready: 2, failed: 1 }, failedFiles: [{ fileId: noiseId, path: "data/noise.txt", error: "file is not text" }] },
    });
    expect(status.content).toContainEqual({ type: "resource_link", uri: `pks://projects/${w.projectId}/files/${noiseId}`, name: "data/noise.txt" });
  });

  it("the server's log records about the session's project are forwarded at their level; others never", async () => {
    const session = await listen(w);
    client = session.client;
    const { heard } = session;
    log.info("types reviewed", { projectId: w.projectId, proposed: 2 });
    log.warn("a warning about another project", { projectId: w.otherProjectId });
    log.error("an error about no project", { error: new Error("boom") });
    log.error("reviewing types failed", { projectId: w.projectId, error: new Error("disk full") });
    await until(() => heard.messages.length >= 2, "two messages");
    await new Promise((r) => setTimeout(r, 200));
    expect(heard.messages).toEqual([
      { level: "info", logger: "pks", data: { message: "types reviewed", time: expect.any(String), projectId: w.projectId, proposed: 2 } },
      {
        level: "error",
        logger: "pks",
        data: { message: "reviewing types failed", time: expect.any(String), projectId: w.projectId, error: { name: "Error", message: "disk full" } },
      },
    ]);
  });
});

describe("onLog", () => {
  it("hears every record even when stderr is silent, until unsubscribed; a throwing listener breaks nothing", () => {
    expect(process.env.PKS_LOG).toBe("silent");
    const heard: LogRecord[] = [];
    const stopThrowing = onLog(() => {
      throw new Error("listener failure");
    });
    const stop = onLog((r) => heard.push(r));
    log.warn("first", { projectId: "prj_x", error: new Error("why", { cause: new Error("root") }) });
    stop();
    stopThrowing();
    log.info("second");
    expect(heard).toEqual([
      {
        t: expect.any(String),
        level: "warn",
        msg: "first",
        projectId: "prj_x",
        error: { name: "Error", message: "why", cause: { name: "Error", message: "root" } },
      },
    ]);
  });
});
