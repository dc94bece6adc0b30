import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import { onLog } from "../../logger.js";
import type { LogRecord } from "../../logger.js";
import type { McpContext, McpFeature } from "./context.js";
import { handleRequest, invalidParams } from "./protocol-error.js";
import { runPage, sessionProject } from "./rest-read.js";
import { projectWatch, whileOpen } from "./watch.js";
import type { LeaseSnapshot } from "./watch.js";

/** MCP's levels, least severe first. */
export const LOG_LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
/** What a session hears before it sets a level. */
const DEFAULT_LEVEL: LoggingLevel = "info";
/** Failed files a failure message names, at most. */
const FAILED_SHOWN = 10;

const FROM_LOG: Record<LogRecord["level"], LoggingLevel> = { info: "info", warn: "warning", error: "error" };

/**
 * One session's log channel: its level (set by `logging/setLevel`, `info`
 * until then) and the sending of `notifications/message` at or above it. A
 * message that cannot be sent (the session is closing) is dropped.
 */
class SessionLog {
  #level: LoggingLevel = DEFAULT_LEVEL;

  constructor(readonly server: Server) {}

  set level(level: LoggingLevel) {
    this.#level = level;
  }

  async send(level: LoggingLevel, logger: string, data: Record<string, unknown>): Promise<void> {
    if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(this.#level)) return;
    await this.server.notification({ method: "notifications/message", params: { level, logger, data } }).catch(() => undefined);
  }
}

/**
 * Logging: `logging/setLevel` sets this session's level (an unknown level is
 * -32602), and the session hears, as `notifications/message`:
 *
 * - its project's reading, from the lease the session watches: `info`
 *   `reading started` when files are queued, `info` `reading done` with
 *   the project's counts and how they moved once nothing is queued or being
 *   read, and `warning` `files failed to read` naming the files that failed
 *   in that batch (path and error);
 * - the server's own log records that carry its project's `projectId`
 *   (`info`; `warn` as `warning`, `error` as `error`). Records about no
 *   project or another project are never sent: a session learns nothing
 *   about projects it cannot read.
 */
export const loggingFeature: McpFeature = {
  capabilities: { logging: {} },
  register(server, ctx) {
    const log = new SessionLog(server);
    handleRequest(server, "logging/setLevel", async (params) => {
      const level = params.level;
      if (typeof level !== "string" || !(LOG_LEVELS as readonly string[]).includes(level)) {
        throw invalidParams(`params.level must be one of ${LOG_LEVELS.join(", ")}`);
      }
      log.level = level as LoggingLevel;
      return {};
    });
    whileOpen(server, () => onLog((record) => void forward(ctx, log, record)));
    let base: LeaseSnapshot | undefined;
    projectWatch(server, ctx).on(async (next, previous) => {
      if (previous.state === "idle") base = previous;
      const from = base ?? previous;
      // Scanning is reading's first part: the folder is listed, then its files read.
      if (next.state !== "idle") {
        if (previous.state === "idle") await log.send("info", "pks.ingest", { message: readingStarted(next), event: "reading_started", ...lease(next) });
        return;
      }
      base = next;
      const change = { ready: next.files.ready - from.files.ready, failed: next.files.failed - from.files.failed };
      await log.send("info", "pks.ingest", { message: readingDone(next, change), event: "reading_done", ...lease(next), change });
      if (change.failed > 0) await reportFailures(ctx, log, from, change.failed);
    });
  },
};

function forward(ctx: McpContext, log: SessionLog, record: LogRecord): Promise<void> | undefined {
  const projectId = ctx.caller().projectId;
  if (!projectId || record.projectId !== projectId) return undefined;
  const { t, level, msg, ...fields } = record;
  return log.send(FROM_LOG[level], "pks", { message: msg, time: t, ...fields });
}

const lease = (s: LeaseSnapshot) => ({ projectId: s.projectId, version: s.version, files: s.files });

function readingStarted(s: LeaseSnapshot): string {
  return `reading started: ${s.files.queued} files queued, ${s.files.reading} being read`;
}

const signed = (n: number) => (n >= 0 ? `+${n}` : String(n));

function readingDone(s: LeaseSnapshot, change: { ready: number; failed: number }): string {
  const { ready, failed } = s.files;
  return `reading done (corpus version ${s.version}): ${ready} files ready (${signed(change.ready)}), ${failed} failed (${signed(change.failed)})`;
}

/** A `warning` naming the files that failed since `from` (newest state first), read as `files?status=failed`. */
async function reportFailures(ctx: McpContext, log: SessionLog, from: LeaseSnapshot, count: number): Promise<void> {
  let files: Array<{ fileId: string; path: string; error?: string }> = [];
  try {
    const projectId = await sessionProject(ctx);
    const page = await runPage<{ fileId: string; path: string; error?: string; updatedAt: string }>(ctx, "files.list", projectId, {
      query: { status: "failed", limit: "200" },
    });
    files = page.rows
      .filter((f) => f.updatedAt > from.updatedAt)
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
      .slice(0, FAILED_SHOWN)
      .map((f) => ({ fileId: f.fileId, path: f.path, ...(f.error ? { error: f.error } : {}) }));
  } catch {
    // The count is still worth sending.
  }
  const named = files.map((f) => `${f.path}${f.error ? ` (${f.error})` : ""}`).join("; ");
  await log.send("warning", "pks.ingest", {
    message: `${count} ${count === 1 ? "file" : "files"} failed to read${named ? `: ${named}` : ""}`,
    event: "reading_failed",
    failed: count,
    files,
  });
}
