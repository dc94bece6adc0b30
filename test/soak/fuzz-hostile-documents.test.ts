/**
 * Hostile documents, soak run: 200 per reader family from a random seed
 * (printed), at full size (up to 16 MiB, the most one ingest call carries),
 * ingested through the real API into a file database and read by the real
 * worker with the product's reading limits, while a probe keeps asking for
 * the file list. Replay a run with
 * `FUZZ_SEED=<seed> npx vitest run --project soak test/soak/fuzz-hostile-documents.test.ts`;
 * `FUZZ_DOCS` changes the count, `-t <family>` runs one family.
 * `FUZZ_DOC_BYTES` caps each document's size and `FUZZ_READ_TIMEOUT_MS`
 * sets the reading limit: CI runs the 200 per family at 64 KiB with a 5 s
 * limit so the whole pipeline stays within its time; unset, full size and
 * the product's limits.
 */
import { defineHostileFuzz } from "../support/fuzz/hostile-suite.js";

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const DOCS = Math.max(1, Number(process.env.FUZZ_DOCS ?? 200));
const MAX_BYTES = process.env.FUZZ_DOC_BYTES ? Number(process.env.FUZZ_DOC_BYTES) : undefined;
const READ_TIMEOUT_MS = process.env.FUZZ_READ_TIMEOUT_MS ? Number(process.env.FUZZ_READ_TIMEOUT_MS) : undefined;
/** Reading may take the product's 60 s a file, one file at a time on a small machine: a cap of that for every document; a stall (nothing settling for 3 min) fails sooner. */
const DEADLINE_MS = DOCS * 60_000 + 3_600_000;

defineHostileFuzz({
  seed: SEED,
  count: DOCS,
  maxBytes: MAX_BYTES,
  readTimeoutMs: READ_TIMEOUT_MS,
  deadlineMs: DEADLINE_MS,
  timeoutMs: DEADLINE_MS + 600_000,
  replay: `FUZZ_SEED=${SEED} FUZZ_DOCS=${DOCS}${MAX_BYTES ? ` FUZZ_DOC_BYTES=${MAX_BYTES}` : ""}${READ_TIMEOUT_MS ? ` FUZZ_READ_TIMEOUT_MS=${READ_TIMEOUT_MS}` : ""} npx vitest run --project soak test/soak/fuzz-hostile-documents.test.ts`,
});
