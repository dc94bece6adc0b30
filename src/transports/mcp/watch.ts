import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { McpContext } from "./context.js";
import { runEndpoint, sessionProject } from "./rest-read.js";

/** How often an open session reads its project's lease. */
export const WATCH_INTERVAL_MS = 2_000;

/** The project's lease as `GET /v1/projects/{projectId}/ingest` answers it, as far as watching needs. */
export interface LeaseSnapshot {
  projectId: string;
  state: "idle" | "scanning" | "reading";
  version: number;
  files: { queued: number; reading: number; ready: number; failed: number };
  updatedAt: string;
}

/** Told each lease read that differs from the one before (the first read sets the baseline and tells no one). */
export type LeaseListener = (next: LeaseSnapshot, previous: LeaseSnapshot) => void | Promise<void>;

/**
 * Watches one session's project while the session is open: every two
 * seconds it reads the lease through the pipeline (`ingest.lease`, as the
 * session's caller, so a member who loses access stops hearing anything) and
 * tells its listeners when the corpus version, the reading state or a file
 * count moved. One read serves every feature of the session (resource
 * list changes, subscriptions, log messages); it starts when the client says
 * `initialized` and stops when the session closes. A read that fails is
 * skipped, never reported as a change.
 */
export class ProjectWatch {
  readonly #ctx: McpContext;
  readonly #listeners: LeaseListener[] = [];
  #timer: NodeJS.Timeout | undefined;
  #last: LeaseSnapshot | undefined;
  #busy = false;

  constructor(ctx: McpContext) {
    this.#ctx = ctx;
  }

  on(listener: LeaseListener): void {
    this.#listeners.push(listener);
  }

  start(intervalMs = WATCH_INTERVAL_MS): void {
    if (this.#timer || this.#listeners.length === 0) return;
    void this.tick();
    this.#timer = setInterval(() => void this.tick(), intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One read of the lease, and the listeners told if it moved. */
  async tick(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    try {
      const projectId = await sessionProject(this.#ctx);
      const next = (await runEndpoint(this.#ctx, "ingest.lease", projectId)) as LeaseSnapshot;
      const previous = this.#last;
      this.#last = next;
      if (!previous || !moved(previous, next)) return;
      for (const listener of this.#listeners) await Promise.resolve(listener(next, previous)).catch(() => undefined);
    } catch {
      // Not readable now (access changed, store busy): try again next time.
    } finally {
      this.#busy = false;
    }
  }
}

function moved(a: LeaseSnapshot, b: LeaseSnapshot): boolean {
  return (
    a.version !== b.version ||
    a.state !== b.state ||
    a.files.queued !== b.files.queued ||
    a.files.reading !== b.files.reading ||
    a.files.ready !== b.files.ready ||
    a.files.failed !== b.files.failed
  );
}

const watches = new WeakMap<Server, ProjectWatch>();

/**
 * Runs `open` once the client's `initialized` notification arrives, and the
 * function it returns when the server closes: what a session does only
 * while it is open (timers, log listeners). The server's own
 * `oninitialized` and `onclose` hooks keep running.
 */
export function whileOpen(server: Server, open: () => () => void): void {
  let close: (() => void) | undefined;
  const initialized = server.oninitialized;
  server.oninitialized = () => {
    initialized?.();
    close ??= open();
  };
  const closed = server.onclose;
  server.onclose = () => {
    closed?.();
    close?.();
    close = undefined;
  };
}

/** The one watch of a server (created on first use), reading while the session is open. */
export function projectWatch(server: Server, ctx: McpContext): ProjectWatch {
  const existing = watches.get(server);
  if (existing) return existing;
  const watch = new ProjectWatch(ctx);
  watches.set(server, watch);
  whileOpen(server, () => {
    watch.start();
    return () => watch.stop();
  });
  return watch;
}
