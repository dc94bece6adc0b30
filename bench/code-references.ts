/**
 * `code_references` latency on a real source tree, against `rg -n` for the
 * same identifiers in the same run. The tree is ingested into a temporary
 * file database through the service (ingest time is reported too), then
 * about 50 queries — full names and prefixes of declared names — are timed
 * through `app.service.invoke`.
 *
 *   node --import tsx bench/code-references.ts [DIR] [--rounds N]
 *
 * Without DIR the corpus is TypeScript's own `lib/*.d.ts` plus hono's
 * `dist` JavaScript from node_modules (about 100k lines).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createApp } from "../src/app.js";
import type { App } from "../src/app.js";
import { languageForPath } from "../src/code/extract-code.js";
import { loadConfig } from "../src/config.js";
import type { Principal } from "../src/access/principal.js";
import { ingestBatch } from "../src/ingest/accept/ingest-batch.js";
import { setMembership } from "../src/store/access/memberships.js";
import { createProject } from "../src/store/access/projects.js";
import { createUser } from "../src/store/access/users.js";
import { walkFiles } from "./lib/walk-files.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RG = "/usr/bin/rg";
/** Bytes per ingest call, under the 24 MiB request limit. */
const BATCH_BYTES = 8 * 1_048_576;
const QUERIES = 50;

interface CorpusFile {
  path: string;
  relativePath: string;
  bytes: Buffer;
}

interface Query {
  text: string;
  /** rg arguments that find the same occurrences. */
  rg: string[];
}


function corpus(dir: string | undefined): { files: CorpusFile[]; base: string } {
  const typescriptLib = join(ROOT, "node_modules", "typescript", "lib");
  const paths = dir
    ? walkFiles(dir, (path) => languageForPath(path) !== undefined)
    : [
        ...readdirSync(typescriptLib).filter((name) => name.endsWith(".d.ts")).map((name) => join(typescriptLib, name)),
        ...walkFiles(join(ROOT, "node_modules", "hono", "dist"), (path) => /\.(js|cjs|mjs)$/.test(path)),
      ];
  const base = dir ?? join(ROOT, "node_modules");
  return { files: paths.map((path) => ({ path, relativePath: relative(base, path), bytes: readFileSync(path) })), base };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function ingestAll(app: App, projectId: string, files: readonly CorpusFile[]): Promise<{ seconds: number; cpu: number; refused: number }> {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  let refused = 0;
  let batch: CorpusFile[] = [];
  let size = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const answer = await ingestBatch({ projectId }, { files: batch.map((f) => ({ path: f.relativePath, bytes: new Uint8Array(f.bytes) })) }, app.tools);
    refused += answer.refused.length;
    app.worker.kick();
    batch = [];
    size = 0;
  };
  for (const file of files) {
    if (size + file.bytes.length > BATCH_BYTES) await flush();
    batch.push(file);
    size += file.bytes.length;
  }
  await flush();
  await app.worker.whenIdle();
  const cpu = process.cpuUsage(cpuStart);
  return { seconds: (performance.now() - start) / 1000, cpu: (cpu.user + cpu.system) / 1e6, refused };
}

/** Declared names spread over the alphabet, and a prefix of each. */
async function pickQueries(app: App, projectId: string): Promise<Query[]> {
  const rows = await app.deps.db.all<{ name: string }>(
    "SELECT DISTINCT name FROM symbols WHERE project_id = ? AND retired_at IS NULL AND length(name) >= 5 ORDER BY lower(name)",
    [projectId],
  );
  const step = Math.max(1, Math.floor(rows.length / (QUERIES / 2)));
  const names = rows.filter((_, i) => i % step === 0).slice(0, QUERIES / 2).map((r) => r.name);
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return [
    ...names.map((name) => ({ text: name, rg: ["-n", "-w", name] })),
    ...names.map((name) => name.slice(0, 3)).map((prefix) => ({ text: prefix, rg: ["-n", "-i", `\\b${escape(prefix)}`] })),
  ];
}

async function timeService(app: App, principal: Principal, projectId: string, queries: readonly Query[], rounds: number) {
  const times: number[] = [];
  let rows = 0;
  for (const q of queries) await app.service.invoke(principal, { action: "code_references", input: { query: q.text }, projectId });
  for (let round = 0; round < rounds; round++) {
    for (const q of queries) {
      const start = performance.now();
      const out = await app.service.invoke(principal, { action: "code_references", input: { query: q.text }, projectId });
      times.push(performance.now() - start);
      rows += (out.result as { references: unknown[] }).references.length;
    }
  }
  return { times: times.sort((a, b) => a - b), rows: rows / rounds };
}

function timeRg(files: readonly CorpusFile[], queries: readonly Query[], rounds: number) {
  const times: number[] = [];
  let lines = 0;
  const paths = files.map((f) => f.path);
  for (let round = 0; round < rounds; round++) {
    for (const q of queries) {
      const start = performance.now();
      const out = spawnSync(RG, [...q.rg, "--", ...paths], { encoding: "utf8", maxBuffer: 256 * 1_048_576 });
      times.push(performance.now() - start);
      if (round === 0) lines += out.stdout.split("\n").length - 1;
    }
  }
  return { times: times.sort((a, b) => a - b), lines };
}

function options(argv: string[]): { dir?: string; rounds: number } {
  const roundsAt = argv.indexOf("--rounds");
  const rounds = roundsAt >= 0 ? Math.max(1, Number(argv[roundsAt + 1]) || 3) : 3;
  const dir = argv.find((arg, index) => !arg.startsWith("--") && argv[index - 1] !== "--rounds");
  return dir === undefined ? { rounds } : { dir, rounds };
}

async function main(): Promise<void> {
  const { dir, rounds } = options(process.argv.slice(2));
  const { files } = corpus(dir);
  const lines = files.reduce((sum, f) => sum + f.bytes.toString("utf8").split("\n").length, 0);
  const megabytes = files.reduce((sum, f) => sum + f.bytes.length, 0) / 1_048_576;
  console.log(`corpus: ${files.length} files, ${lines.toLocaleString("en-US")} lines, ${megabytes.toFixed(2)} MB`);
  const tmp = mkdtempSync(join(tmpdir(), "pks-bench-refs-"));
  const app = await createApp(loadConfig({ root: tmp, db: `file:${join(tmp, "pks.db")}` }, {}));
  try {
    const user = await createUser(app.deps.db, "bench");
    const project = await createProject(app.deps.db, { name: "bench" });
    await setMembership(app.deps.db, project.projectId, user.userId, "owner");
    const principal: Principal = { userId: user.userId, via: "local", keyId: null, tier: "standard", boundProjectId: null, boundTypeId: null };
    const ingest = await ingestAll(app, project.projectId, files);
    const counts = await app.deps.db.get<{ symbols: number; refs: number; failed: number }>(
      `SELECT (SELECT count(*) FROM symbols WHERE retired_at IS NULL) AS symbols, (SELECT ifnull(sum(n), 0) FROM code_reference_sites) AS refs,
              (SELECT count(*) FROM files WHERE status = 'failed') AS failed`,
    );
    console.log(
      `ingest: ${ingest.seconds.toFixed(2)} s wall, ${ingest.cpu.toFixed(2)} s cpu (${Math.round(lines / ingest.seconds).toLocaleString("en-US")} lines/s wall); ` +
        `${Number(counts?.symbols).toLocaleString("en-US")} symbols, ${Number(counts?.refs).toLocaleString("en-US")} references; ` +
        `${ingest.refused} refused, ${Number(counts?.failed)} failed`,
    );
    const queries = await pickQueries(app, project.projectId);
    const service = await timeService(app, principal, project.projectId, queries, rounds);
    const fmt = (ms: number) => `${ms.toFixed(2).padStart(8)} ms`;
    console.log(`${queries.length} queries (${queries.length / 2} names, ${queries.length / 2} prefixes), ${rounds} rounds`);
    console.log(`code_references  p50 ${fmt(percentile(service.times, 50))}  p95 ${fmt(percentile(service.times, 95))}  (${service.rows.toFixed(0)} rows per round)`);
    if (!existsSync(RG)) {
      console.log(`rg: skipped (${RG} not found)`);
      return;
    }
    const rg = timeRg(files, queries, rounds);
    console.log(`rg -n            p50 ${fmt(percentile(rg.times, 50))}  p95 ${fmt(percentile(rg.times, 95))}  (${rg.lines.toLocaleString("en-US")} matching lines in round 1)`);
    const ratio = (p: number) => (percentile(rg.times, p) / percentile(service.times, p)).toFixed(1);
    console.log(`ratio (rg / code_references): p50 ${ratio(50)}×, p95 ${ratio(95)}×`);
  } finally {
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
