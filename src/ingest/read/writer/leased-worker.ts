/**
 * The reading worker of one process among several on a database: only the
 * holder of the writer lease (`writer_lease`, one row) claims files and
 * writes readings; another process serves reads and leaves writing to it,
 * tries to take the lease every RENEW_MS, and takes it once the holder's
 * term (TERM_MS) ran out — the holder died or stalled. Only a new holder
 * queues interrupted readings again, so a process starting beside a live
 * holder never requeues the readings it has under way, and a holder that
 * lost its lease writes nothing more (the worker asks `holds` inside each
 * claim and commit). The holder also looks for files other processes
 * queued, since their kicks do not reach it.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { log } from "../../../logger.js";
import type { Db } from "../../../store/db.js";
import { hasQueued } from "../../../store/files/files.js";
import { holdsWriterLease, readingPending, releaseWriterLease, takeWriterLease } from "../../../store/files/writer-lease.js";
import type { IngestWorker, WorkerDeps } from "../ingest-worker.js";

/** How long a taken or renewed lease lasts. */
export const TERM_MS = 8_000;
/** How often the holder renews it and another process tries to take it. */
export const RENEW_MS = 1_000;
/** How often a process that does not hold the lease looks whether reading has settled (`whenIdle`). */
const SETTLED_POLL_MS = 100;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class LeasedWorker {
  readonly #db: Db;
  readonly #make: (holds: NonNullable<WorkerDeps["holds"]>) => IngestWorker;
  readonly holder = `${hostname()}:${process.pid}:${randomBytes(6).toString("hex")}`;
  #worker: IngestWorker | undefined;
  #timer: NodeJS.Timeout | undefined;
  #turn: Promise<void> = Promise.resolve();
  #stopped = false;
  /** Renewals failed in a row (the first is logged, and the recovery). */
  #renewFailures = 0;

  /** `make` builds the worker once the lease is held, with the check it asks before each write. */
  constructor(db: Db, make: (holds: NonNullable<WorkerDeps["holds"]>) => IngestWorker) {
    this.#db = db;
    this.#make = make;
  }

  /** Whether this process holds the lease (as of its last renewal). */
  get holding(): boolean {
    return this.#worker !== undefined;
  }

  /** Tries the lease once now, then every RENEW_MS. */
  async start(): Promise<void> {
    await this.#tick();
    this.#timer = setInterval(() => {
      this.#turn = this.#turn.then(() => this.#tick());
    }, RENEW_MS);
  }

  kick(): void {
    this.#worker?.kick();
  }

  /** The holder's worker idle; elsewhere, no file queued or being read in the database. */
  async whenIdle(): Promise<void> {
    if (this.#worker) return this.#worker.whenIdle();
    while (!this.#stopped && !this.holding && (await readingPending(this.#db))) await sleep(SETTLED_POLL_MS);
    // Taken meanwhile: idle means this process's own worker idle.
    return (this.#worker as IngestWorker | undefined)?.whenIdle();
  }

  /** Stops reading and gives the lease up, so another process takes it at once. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#turn;
    const worker = this.#worker;
    this.#worker = undefined;
    if (!worker) return;
    await worker.stop();
    await releaseWriterLease(this.#db, this.holder).catch(() => undefined);
  }

  /** Renews or takes the lease; starts the worker on taking it, stops it on losing it. */
  async #tick(): Promise<void> {
    if (this.#stopped) return;
    let held: boolean;
    try {
      held = await this.#db.transaction((tx) => takeWriterLease(tx, this.holder, Date.now(), TERM_MS));
    } catch (err) {
      // Once per outage, not once a tick: a full disk fails every renewal until space returns.
      if (this.#renewFailures++ === 0) log.warn("the writer lease could not be renewed; trying again every tick", { error: err });
      return;
    }
    if (this.#renewFailures > 0) log.info("the writer lease is renewed again", { failedTicks: this.#renewFailures });
    this.#renewFailures = 0;
    if (held && !this.#worker) await this.#lead();
    else if (!held && this.#worker) await this.#follow();
    else if (held && (await hasQueued(this.#db))) this.#worker!.kick();
  }

  async #lead(): Promise<void> {
    const worker = this.#make((tx) => holdsWriterLease(tx, this.holder));
    this.#worker = worker;
    log.info("holding the writer lease", { holder: this.holder });
    await worker.start();
  }

  async #follow(): Promise<void> {
    log.warn("the writer lease went to another process; reading stops here", { holder: this.holder });
    const worker = this.#worker!;
    this.#worker = undefined;
    await worker.stop();
  }
}
