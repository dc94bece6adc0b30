import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { AppError } from "../errors.js";
import { log } from "../logger.js";
import type { Db } from "../store/db.js";
import { peerRateEvents, writeRateBatch } from "../store/access/rate-events.js";
import type { RateBatch, RateEvent, RateWindow } from "../store/access/rate-events.js";
import type { Principal } from "./principal.js";

/**
 * How often counted requests are written and the other processes' read
 * back: the delay after which a request counted here holds in every other
 * process on the database (and survives a restart).
 */
export const RATE_SYNC_MS = 200;
/** Waits between tries while writing keeps failing (a full disk, a lost lock), doubled up to this. */
const MAX_BACKOFF_MS = 5_000;
/** Requests kept for writing while writing fails, at most; the oldest go first (the windows in memory still hold). */
const MAX_PENDING = 50_000;
/** Subjects per read of the other processes' requests (SQLite binds at most 32,766 values). */
const SUBJECTS_PER_READ = 500;

/**
 * The sliding-log rate limit (60 requests in any rolling minute per key by
 * default; refused credentials per address), decided in memory.
 *
 * Why in memory: it is asked on every request, reads included. Deciding it
 * in a write transaction made every read wait for the one write lock behind
 * a reading's commit (tens to hundreds of milliseconds during an ingest),
 * and made reads answer 503 when the disk was full. Here the decision is a
 * few array operations; no request waits for, or fails with, a write.
 *
 * Why it still writes: the limit is shared by every process on the database
 * and must survive a restart. Every RATE_SYNC_MS a batch of the requests
 * counted here is written (tagged with this process's origin), the windows
 * other processes wrote are read back for the subjects seen here, and
 * requests that left every window are forgotten — off the request path. A
 * failed write is logged and tried again later with backoff, and fails no
 * request. The batch is written by `store` (createApp: a job on the writer
 * thread when the process has one): committed on the serving thread, its
 * fsync and the WAL checkpoint SQLite runs after a commit held every request
 * for up to 96 ms each during a large ingest (docs/benchmarks.md). So a request counted by another process holds here within about
 * RATE_SYNC_MS; at start every window in the store is loaded.
 *
 * A wall clock that steps back pulls requests "from the future" back to now,
 * so a window lasts one length at most, as its `Retry-After` says.
 */
export class RateLimiter {
  readonly #db: Db;
  readonly #window: RateWindow;
  readonly #clock: () => number;
  readonly #store: (batch: RateBatch) => Promise<void>;
  /** Which process counted a request, in the store. */
  readonly origin = `${hostname()}:${process.pid}:${randomBytes(6).toString("hex")}`;
  /** Requests counted here, per subject, oldest first. */
  readonly #own = new Map<string, number[]>();
  /** Requests other processes counted, per subject, as of the last read. */
  #peers = new Map<string, number[]>();
  #pending: RateEvent[] = [];
  #timer: NodeJS.Timeout | undefined;
  #sync: Promise<void> | undefined;
  #backoffMs = RATE_SYNC_MS;
  #failing = false;
  #closed = false;

  /** `store` writes a batch (by default a transaction on `db`, the connection it reads the other processes' windows on). */
  constructor(db: Db, window: RateWindow, clock: () => number, store?: (batch: RateBatch) => Promise<void>) {
    this.#db = db;
    this.#window = window;
    this.#clock = clock;
    this.#store = store ?? ((batch) => writeRateBatch(db, batch));
  }

  /** Loads every window in the store (requests counted before a restart, or by other processes). */
  async start(): Promise<void> {
    try {
      this.#peers = byPeerSubject(await peerRateEvents(this.#db, this.origin, this.#clock() - this.#window.windowMs));
    } catch (err) {
      log.warn("rate windows could not be loaded; they start empty", { error: err });
    }
  }

  /** Counts one request of a key (or a key-less session's user): 429 with `Retry-After` past the limit. */
  countRequest(principal: Principal): void {
    this.#count(principal.keyId ? `key:${principal.keyId}` : `user:${principal.userId}`);
  }

  /** Counts one refused credential (a 401) against the peer's address: past the limit it becomes 429. */
  countRefusal(address: string): void {
    this.#count(`refused:${address}`);
  }

  #count(subject: string): void {
    const now = this.#clock();
    const since = now - this.#window.windowMs;
    const own = inWindow(this.#own, subject, since, now);
    const peers = inWindow(this.#peers, subject, since, now);
    if (own.length + peers.length >= this.#window.max) {
      const oldest = Math.min(own[0] ?? now, peers[0] ?? now);
      const waitMs = oldest + this.#window.windowMs - now;
      const seconds = Math.min(Math.max(1, Math.ceil(waitMs / 1000)), Math.ceil(this.#window.windowMs / 1000));
      throw new AppError("rate_limited", { headers: { "Retry-After": String(seconds) } });
    }
    own.push(now);
    this.#own.set(subject, own);
    this.#pending.push({ subject, atMs: now });
    if (this.#pending.length > MAX_PENDING) this.#pending.splice(0, this.#pending.length - MAX_PENDING);
    this.#schedule(RATE_SYNC_MS);
  }

  #schedule(ms: number): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, ms);
    this.#timer.unref();
  }

  /**
   * Writes the requests counted here, forgets those out of every window and
   * reads back the other processes' for the subjects seen here. Resolves
   * when done (a sync under way is joined); never rejects.
   */
  flush(): Promise<void> {
    this.#sync ??= this.#exchange().finally(() => {
      this.#sync = undefined;
      if (this.#pending.length > 0 || this.#own.size > 0) this.#schedule(this.#backoffMs);
    });
    return this.#sync;
  }

  async #exchange(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    const now = this.#clock();
    const since = now - this.#window.windowMs;
    if (batch.length > 0) await this.#write(batch, now);
    this.#forget(since, now);
    await this.#readPeers(since);
  }

  /** One batch and the forgetting in one transaction; a failure keeps the batch for the next try, later. */
  async #write(batch: readonly RateEvent[], now: number): Promise<void> {
    try {
      await this.#store({ origin: this.origin, events: batch, nowMs: now, windowMs: this.#window.windowMs });
      if (this.#failing) log.info("rate events are written again");
      this.#failing = false;
      this.#backoffMs = RATE_SYNC_MS;
    } catch (err) {
      this.#pending = [...batch, ...this.#pending].slice(-MAX_PENDING);
      if (!this.#failing) log.warn("rate events could not be written; requests are still counted in memory", { error: err });
      this.#failing = true;
      this.#backoffMs = Math.min(this.#backoffMs * 2, MAX_BACKOFF_MS);
    }
  }

  /** Drops subjects whose own requests all left the window. */
  #forget(since: number, now: number): void {
    for (const subject of [...this.#own.keys()]) {
      if (inWindow(this.#own, subject, since, now).length === 0) this.#own.delete(subject);
    }
  }

  async #readPeers(since: number): Promise<void> {
    const subjects = [...new Set([...this.#own.keys(), ...this.#peers.keys()])];
    const read: RateEvent[] = [];
    try {
      for (let i = 0; i < subjects.length; i += SUBJECTS_PER_READ) {
        read.push(...(await peerRateEvents(this.#db, this.origin, since, subjects.slice(i, i + SUBJECTS_PER_READ))));
      }
    } catch (err) {
      log.warn("other processes' rate events could not be read", { error: err });
      return;
    }
    this.#peers = byPeerSubject(read);
  }

  /** Stops syncing after a last write of what was counted here. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#sync;
    if (this.#pending.length > 0) await this.#exchange();
  }
}

/**
 * The subject's requests inside the window (`since`, `now`], kept in the
 * map: older ones dropped, later ones (the clock stepped back) pulled to now.
 */
function inWindow(map: Map<string, number[]>, subject: string, since: number, now: number): number[] {
  const times = map.get(subject);
  if (!times) return [];
  let drop = 0;
  while (drop < times.length && times[drop]! <= since) drop++;
  if (drop > 0) times.splice(0, drop);
  for (let i = times.length - 1; i >= 0 && times[i]! > now; i--) times[i] = now;
  if (times.length === 0) map.delete(subject);
  return times;
}

function byPeerSubject(events: readonly RateEvent[]): Map<string, number[]> {
  const map = new Map<string, number[]>();
  for (const e of events) {
    const times = map.get(e.subject);
    if (times) times.push(e.atMs);
    else map.set(e.subject, [e.atMs]);
  }
  return map;
}
