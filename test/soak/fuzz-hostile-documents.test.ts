/**
 * Hostile documents, soak run: 200 per reader family from a random seed
 * (printed), at full size (up to 16 MiB, the most one ingest call carries),
 * ingested through the real API into a file database and read by the real
 * worker with the product's reading limits, while a probe keeps asking for
 * the file list. Replay a run with
 * `FUZZ_SEED=<seed> npx vitest run --project soak test/soak/fuzz-hostile-documents.test.ts`;
 * `FUZZ_DOCS` changes the count, `-t <family>` runs one family.
 */
import { defineHostileFuzz } from "../support/fuzz/hostile-suite.js";

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const DOCS = Math.max(1, Number(process.env.FUZZ_DOCS ?? 200));
/** Reading may take the product's 60 s a file, one file at a time on a small machine: a cap of that for every document; a stall (nothing settling for 3 min) fails sooner. */
const DEADLINE_MS = DOCS * 60_000 + 3_600_000;

defineHostileFuzz({
  seed: SEED,
  count: DOCS,
  deadlineMs: DEADLINE_MS,
  timeoutMs: DEADLINE_MS + 600_000,
  replay: `FUZZ_SEED=${SEED} FUZZ_DOCS=${DOCS} npx vitest run --project soak test/soak/fuzz-hostile-documents.test.ts`,
});
