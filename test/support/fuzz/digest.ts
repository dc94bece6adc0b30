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
    const rows = await db.execute(`SELECT ${columns.map((c) => `quote(${c})`).join(", ")} FROM ${quoteName(name)} ORDER BY ${columns.join(", ")}`);
    hash.update(`\u0001${name}\u0002`);
    for (const row of rows.rows) {
      for (let i = 0; i < rows.columns.length; i++) hash.update(`${String(row[i])}\u0004`);
      hash.update("\u0003");
    }
  }
  return hash.digest("hex");
}

function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Compares the digest around refused requests. A baseline is taken before a
 * sampled request when the last one was not a refusal (a success may have
 * changed the store, and the reading worker may still be writing: it is
 * waited for); after a sampled refusal the digest must equal the baseline.
 * Refusals between samples are covered too: nothing but refusals ran since
 * the baseline. `finish` checks once more at the end of a run of refusals.
 */
export class DigestWatch {
  #baseline: string | undefined;
  #since: string[] = [];
  /** Digest changes seen across runs of refusals, each with the requests that ran since the baseline. */
  readonly changes: string[] = [];
  /** Digests taken. */
  digests = 0;

  constructor(
    private readonly db: Db,
    private readonly settle: () => Promise<void>,
  ) {}

  /** Call before sending a request; `sampled` ones are checked after. */
  async before(sampled: boolean): Promise<void> {
    if (sampled && this.#baseline === undefined) {
      await this.settle();
      this.#baseline = await this.#digest();
      this.#since = [];
    }
  }

  /** Call after the answer: `refused` for a 4xx, `what` describing the request. */
  async after(refused: boolean, sampled: boolean, what: string): Promise<void> {
    if (!refused) {
      this.#baseline = undefined;
      return;
    }
    if (this.#baseline === undefined) return;
    this.#since.push(what);
    if (sampled) await this.check();
  }

  /** Compares the digest now with the baseline, if there is one. */
  async check(): Promise<void> {
    if (this.#baseline === undefined || this.#since.length === 0) return;
    const now = await this.#digest();
    if (now !== this.#baseline) this.changes.push(`store changed across refusals:\n  ${this.#since.slice(-20).join("\n  ")}`);
    this.#baseline = now;
    this.#since = [];
  }

  async #digest(): Promise<string> {
    this.digests++;
    return databaseDigest(this.db);
  }
}
