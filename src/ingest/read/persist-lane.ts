/**
 * Group commit of readings. Every reading is written in a transaction that
 * ends with an fsync (WAL, `synchronous=FULL`); one transaction per file
 * made the fsyncs most of a cold ingest's main-thread time. Readings that
 * finish while a commit is under way wait for it and then go together in the
 * next transaction, up to a row budget and HOLD_MS of writing (so the write lock is never held for
 * long): a single edit is written at once, a cold ingest in batches. When
 * the owner says more readings are on their way (`more`), a batch waits
 * for them up to a short window (GATHER_MS) before it commits: with one
 * reader thread readings arrive one by one, and committing each as it came
 * made a cold ingest of vuejs/core 890 transactions whose fsyncs were 16 s
 * of its time on a loaded host. Nothing waits when nothing else is being
 * read (a single edit). A file's reading is still acknowledged (its status
 * `ready`) only by the commit that holds it. If a batch fails, its files are
 * written one by one, so one bad reading fails only its own file.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Db, Queryable } from "../../store/db.js";

/**
 * Lets the thread's other tasks run (messages, timers such as the writer
 * lease's renewal). The local binding is synchronous, so a chain of awaits
 * over statements never leaves the microtask queue: without this a cold
 * ingest's back-to-back transactions held the writer thread's event loop
 * for tens of seconds, and a stop asked of it waited as long.
 */
const yieldToEvents = (): Promise<void> => nextTurn();

/** What a stopped worker's readings fail with: the worker gives their claims back (ingest-worker.ts), so the files are read again. */
export const stoppedError = () => new Error("the worker stopped");

/** One reading to write, with the work that writes it in a transaction. */
export interface PersistItem {
  /** Rows the reading will write (factions plus cells), for the batch budget. */
  readonly rows: number;
  write(tx: Queryable): Promise<void>;
}

interface Waiting {
  readonly item: PersistItem;
  resolve(): void;
  reject(error: unknown): void;
}

/** Rows one transaction writes at most (a single larger reading still goes alone). */
export const BATCH_ROWS = 20_000;
/**
 * How long after the previous batch was taken the next one may wait, at
 * most, for readings under way (from now for the first batch of a drain).
 * Counted from the previous take, a writer whose transactions take longer
 * than this (it is behind) never waits; one that is ahead commits at most
 * this often. Counted from now, as it was, every batch of a cold ingest
 * waited the whole window, 50 ms each of 268 batches on vuejs/core.
 */
export const GATHER_MS = 200;
/**
 * How long one transaction writes, at most, before it commits with the
 * readings written so far (the rest go first in the next one): requests
 * that write (sessions, rate events, accepted uploads) wait for the write
 * lock no longer than this and one reading's rows.
 */
export const HOLD_MS = 50;
/**
 * The same bound while more readings are on their way (a cold ingest, a
 * large sync). Each commit is an fsync (`synchronous=FULL`): on vuejs/core
 * 50 ms transactions made 268 commits, 14.5 s of the writer thread's time
 * on a loaded host (about 18 ms each on a quiet one), beside about as much
 * time writing. No request waits for the write lock during an ingest but
 * uploads and sessions (rate events are written in batches off the request
 * path, reads use their own connection), and the writer lets waiting
 * requests go first before each transaction (see `write-turns.ts`).
 */
export const BULK_HOLD_MS = 200;

export interface PersistLaneOptions {
  /** Row budget of one transaction (BATCH_ROWS). */
  readonly maxRows?: number;
  /** Whether more readings are on their way to the lane (none by default: nothing waits). */
  readonly more?: () => boolean;
  /** The gathering window (GATHER_MS). */
  readonly gatherMs?: number;
  /** How long one transaction writes at most (HOLD_MS). */
  readonly holdMs?: number;
  /** How long one transaction writes at most while more readings are on their way (BULK_HOLD_MS). */
  readonly bulkHoldMs?: number;
}

export class PersistLane {
  readonly #db: Db;
  readonly #maxRows: number;
  readonly #more: () => boolean;
  readonly #gatherMs: number;
  readonly #holdMs: number;
  readonly #bulkHoldMs: number;
  /** Wakes a gathering batch when a reading arrives. */
  #arrived: (() => void) | undefined;
  #waiting: Waiting[] = [];
  #draining: Promise<void> | undefined;
  /** Set by {@link close}: nothing more is written. */
  #closed = false;
  /** Transactions committed and readings written, for benchmarks and logs. */
  readonly stats = { commits: 0, items: 0 };

  constructor(db: Db, options: number | PersistLaneOptions = {}) {
    const o = typeof options === "number" ? { maxRows: options } : options;
    this.#db = db;
    this.#maxRows = o.maxRows ?? BATCH_ROWS;
    this.#more = o.more ?? (() => false);
    this.#gatherMs = o.gatherMs ?? GATHER_MS;
    this.#holdMs = o.holdMs ?? HOLD_MS;
    this.#bulkHoldMs = Math.max(this.#holdMs, o.bulkHoldMs ?? BULK_HOLD_MS);
  }

  /** Writes one reading; resolves once the transaction that holds it committed. */
  persist(item: PersistItem): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (this.#closed) return reject(stoppedError());
      this.#waiting.push({ item, resolve, reject });
      this.#arrived?.();
      this.#start();
    });
  }

  /**
   * Starts draining unless a drain runs. A reading that arrives after the
   * drain's last look but before it ended is picked up by a new drain.
   */
  #start(): void {
    if (this.#draining) return;
    this.#draining = this.#drain().finally(() => {
      this.#draining = undefined;
      if (this.#waiting.length > 0) this.#start();
    });
  }

  async #drain(): Promise<void> {
    let since = performance.now();
    while (this.#waiting.length > 0) {
      await this.#gather(since);
      if (this.#closed) return this.#refuseWaiting();
      since = performance.now();
      const batch = this.#take();
      const holdMs = this.#more() ? this.#bulkHoldMs : this.#holdMs;
      let written = 0;
      try {
        await this.#db.transaction(async (tx) => {
          const start = performance.now();
          for (const w of batch) {
            await w.item.write(tx);
            written++;
            if (performance.now() - start >= holdMs) break;
          }
        });
        // Readings the time bound left out go first in the next transaction.
        this.#waiting.unshift(...batch.splice(written));
        this.stats.commits++;
        this.stats.items += batch.length;
        for (const w of batch) w.resolve();
      } catch (err) {
        await this.#oneByOne(batch, err);
      }
      await yieldToEvents();
    }
  }

  /**
   * Stops the lane (the worker is stopping): the transaction under way
   * commits, and every reading not yet begun is refused ("the worker
   * stopped"), as is any that arrives later. Their files stay claimed, and
   * the worker gives the claims back, so they are read again; a stop then
   * waits for one transaction, not for every reading queued behind it.
   */
  close(): void {
    this.#closed = true;
    this.#refuseWaiting();
    this.#arrived?.();
  }

  /** Writes again after {@link close} (a worker started again). */
  open(): void {
    this.#closed = false;
  }

  /** Refuses the readings waiting (a closed lane; also those a closing transaction's time bound left out). */
  #refuseWaiting(): void {
    for (const w of this.#waiting.splice(0)) w.reject(stoppedError());
  }

  /** A failed batch: each reading alone, so one bad reading fails only its own file. */
  async #oneByOne(batch: Waiting[], err: unknown): Promise<void> {
    if (batch.length === 1) {
      batch[0]!.reject(err);
      return;
    }
    for (const w of batch) {
      try {
        await this.#db.transaction((tx) => w.item.write(tx));
        this.stats.commits++;
        this.stats.items++;
        w.resolve();
      } catch (one) {
        w.reject(one);
      }
    }
  }

  /** Tells a gathering batch to look again whether more readings are on their way. */
  nudge(): void {
    this.#arrived?.();
  }

  /** Waits, up to the window from `since`, while more readings are on their way and the row budget is not full. */
  async #gather(since: number): Promise<void> {
    const deadline = since + this.#gatherMs;
    while (!this.#closed && this.#more() && this.rowsWaiting() < this.#maxRows) {
      const left = deadline - performance.now();
      if (left <= 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#arrived = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#arrived = undefined;
    }
  }

  /** Rows of the readings waiting for their commit (factions plus cells). */
  rowsWaiting(): number {
    let rows = 0;
    for (const w of this.#waiting) rows += w.item.rows;
    return rows;
  }

  /** The next batch: waiting readings in order, up to the row budget (at least one). */
  #take(): Waiting[] {
    let rows = 0;
    let n = 0;
    while (n < this.#waiting.length) {
      const next = this.#waiting[n]!.item.rows;
      if (n > 0 && rows + next > this.#maxRows) break;
      rows += next;
      n++;
    }
    return this.#waiting.splice(0, n);
  }
}
