/**
 * A digest of everything the database holds, and a watch that compares it
 * around refused requests: a 4xx must leave the store as it found it.
 * `rate_events` is left out (every admitted request counts there, refused
 * or not), as are the FTS virtual tables (their shadow tables are in).
 */
import { createHash } from "node:crypto";
import type { Db } from "../../../src/store/db.js";

/** Tables whose rows change on requests that are refused all the same. */
const IGNORED = new Set(["rate_events"]);

/** A sha256 over every row of every user table, rows in a fixed order. */
export async function databaseDigest(db: Db): Promise<string> {
  const tables = await db.all<{ name: string; sql: string | null }>(
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  );
  const hash = createHash("sha256");
  for (const { name, sql } of tables) {
    if (IGNORED.has(name) || /^\s*CREATE\s+VIRTUAL/i.test(sql ?? "")) continue;
    const columns = (await db.all<{ name: string }>(`SELECT name FROM pragma_table_info(?)`, [name])).map((c) => quoteName(c.name));
    // quote() writes every value as SQL text: integers past 2^53 (FTS5 segment ids) and blobs included.
    // Rows are read by column name: each value under an alias of its position.
    const aliases = columns.map((_, i) => `c${i}`);
    const rows = await db.all<Record<string, unknown>>(
      `SELECT ${columns.map((c, i) => `quote(${c}) AS ${aliases[i]}`).join(", ")} FROM ${quoteName(name)} ORDER BY ${columns.join(", ")}`,
    );
    hash.update(`\u0001${name}\u0002`);
    for (const row of rows) {
      for (const alias of aliases) hash.update(`${String(row[alias])}\u0004`);
      hash.update("\u0003");
    }
  }
  return hash.digest("hex");
}

function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** One request as the watch sees it. */
export interface Watched {
  /** Whether a success of this request may write (any method but GET; a read-only action's call). */
  mayWrite: boolean;
  /** Whether a refusal of it is checked at once (every tenth request, say). */
  sampled: boolean;
}

/**
 * Compares the digest around refused requests: a 4xx must leave the store
 * as it found it. A baseline is taken (once the reading worker is idle)
 * before any request that follows a success that may have written. A run
 * of refusals, and of successes that cannot write, is checked at a sampled
 * refusal, before a request that may write (the run ends there), and at
 * the end (`check`). A change names the requests of its run.
 */
export class DigestWatch {
  #baseline: string | undefined;
  #since: string[] = [];
  #refusals = 0;
  /** Digest changes seen across runs of refusals, each with the requests that ran since the baseline. */
  readonly changes: string[] = [];
  /** Digests taken. */
  digests = 0;

  constructor(
    private readonly db: Db,
    private readonly settle: () => Promise<void>,
  ) {}

  /** Call before sending a request. */
  async before(req: Watched): Promise<void> {
    if (req.mayWrite) await this.check();
    if (this.#baseline === undefined) {
      await this.settle();
      this.#baseline = await this.#digest();
      this.#since = [];
      this.#refusals = 0;
    }
  }

  /** Call after the answer: `refused` for a 4xx, `what` describing the request. */
  async after(req: Watched, status: number, what: string): Promise<void> {
    const refused = status >= 400 && status < 500;
    const harmless = status >= 200 && status < 300 && !req.mayWrite;
    if (!refused && !harmless) {
      this.#baseline = undefined;
      return;
    }
    this.#since.push(what);
    if (refused) this.#refusals++;
    if (refused && req.sampled) await this.check();
  }

  /** Compares the digest now with the baseline, if refusals ran since it. */
  async check(): Promise<void> {
    if (this.#baseline === undefined || this.#refusals === 0) return;
    const now = await this.#digest();
    if (now !== this.#baseline) this.changes.push(`store changed across refusals:\n  ${this.#since.slice(-20).join("\n  ")}`);
    this.#baseline = now;
    this.#since = [];
    this.#refusals = 0;
  }

  async #digest(): Promise<string> {
    this.digests++;
    return databaseDigest(this.db);
  }
}
