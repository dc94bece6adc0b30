/**
 * The semble code-search benchmark's tuning split (MinishLab's public
 * benchmark data: 21 repositories in 19 languages, 414 queries, NDCG@10 over
 * files, bench/lib/semble-metric.ts), run on code_context_pack and
 * memory_query at one budget beside a BM25 over whole files in the same run
 * and on the same store, and beside the published per-repository figures.
 *
 * Each repository's `benchmark_root` subtree (the whole tree when it has
 * none) is ingested through the real pipeline and served alone, as the
 * published figures index it. Trees come from a folder of extracted trees
 * (`--trees DIR` or PKS_SEMBLE_TREES, one `<name>/` each holding the
 * repository's paths), or else are extracted from fetched mirrors
 * (`--mirrors DIR` or PKS_MIRRORS) with `git archive <revision> <root>`,
 * HEAD when the mirror lacks the pinned revision (said in the output).
 * Ingested stores are kept under bench/.cache/semble/, keyed by the tree and
 * by the code that reads files in (all of src/ but the retrieval folder), so
 * tuning the ranking does not ingest again.
 *
 * An answer's files are ranked by its `files` list, then by first
 * appearance in its rows (declarations, then cells, then entities).
 *
 *   node --import tsx bench/eval-semble.ts (--data DIR | PKS_BENCH_DATA) (--trees DIR | PKS_SEMBLE_TREES | --mirrors DIR | PKS_MIRRORS)
 *        [--repos a,b] [--budget 8192] [--actions pack,query] [--show N] [--fresh]
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { codeContextPack } from "../src/retrieve/code/code-context-pack.js";
import { memoryQuery } from "../src/retrieve/memory/memory-query.js";
import { rankFiles } from "../src/retrieve/code/rank-files.js";
import { FileBm25 } from "./lib/file-bm25.js";
import { mean, percentile } from "./lib/ir-metrics.js";
import { benchData } from "./lib/locations.js";
import { firstAppearance, sembleNdcg } from "./lib/semble-metric.js";
import { openSembleStore, sembleTree } from "./lib/semble-trees.js";
import type { SembleRepo, SembleStore } from "./lib/semble-trees.js";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => (args.includes(name) ? (args[args.indexOf(name) + 1] ?? fallback) : fallback);
const BUDGET = Number(opt("--budget", "8192"));
const REPOS = opt("--repos", "").split(",").filter(Boolean);
/** The actions run (`core`: the shared file ranking alone, for tuning it). */
const ACTIONS = opt("--actions", "pack,query").split(",");
const SHOW = Number(opt("--show", "0"));
const FRESH = args.includes("--fresh");
const DATA = benchData("semble-tune");

/** A label is a path, or a path with a line span (the span is not scored). */
type Label = string | { path: string };

interface Query {
  query: string;
  relevant: Label[];
  secondary: Label[];
  category: string;
}

const labelPath = (l: Label) => (typeof l === "string" ? l : l.path);

type Method = "pack" | "query" | "core" | "bm25";
const METHODS: readonly Method[] = ["pack", "query", "core", "bm25"];
const LABEL: Record<Method, string> = { pack: "code_context_pack", query: "memory_query", core: "file ranking", bm25: "BM25-file" };

interface Outcome {
  repo: string;
  language: string;
  category: string;
  query: string;
  ndcg: Partial<Record<Method, number>>;
  ms: Partial<Record<Method, number>>;
  top: Partial<Record<Method, string[]>>;
  labels: string[];
}

type Published = Record<string, number | string>;

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, "utf8")) as T;

/** One action's ranked files for a query and the milliseconds it took. */
async function rankWith(store: SembleStore, method: Method, query: string, bm25: FileBm25): Promise<{ files: string[]; ms: number }> {
  const { app, projectIds } = store;
  const start = performance.now();
  if (method === "bm25") {
    const files = await bm25.rank(query);
    return { files, ms: performance.now() - start };
  }
  if (method === "core") {
    const files = (await rankFiles(app.db, projectIds, query)).map((f) => f.path);
    return { files, ms: performance.now() - start };
  }
  if (method === "pack") {
    const p = await codeContextPack(app.db, { projectIds }, { task: query, budget: BUDGET }, app.tools);
    const ms = performance.now() - start;
    return { files: firstAppearance(p.files.filter((f) => f.reason !== "duplicate").map((f) => f.filepath), p.declarations.map((d) => d.filepath)), ms };
  }
  const a = await memoryQuery(app.db, { projectIds }, { query, budget: BUDGET }, app.tools);
  const ms = performance.now() - start;
  const listed = (a as { files?: Array<{ filepath: string }> }).files?.map((f) => f.filepath) ?? [];
  return { files: firstAppearance(listed, a.declarations.map((d) => d.filepath), a.cells.map((c) => c.filepath), a.entities.flatMap((e) => (e.filepath ? [e.filepath] : []))), ms };
}

async function runRepo(repo: SembleRepo): Promise<{ outcomes: Outcome[]; ingestSeconds: number; files: number; note: string }> {
  const tree = sembleTree(repo, args);
  const store = await openSembleStore(repo, tree, FRESH);
  const outcomes: Outcome[] = [];
  try {
    const bm25 = new FileBm25(store.app.deps.db);
    await store.app.deps.db.execute("DROP TABLE IF EXISTS bench_files");
    await bm25.create();
    await bm25.update(store.texts, []);
    const queries = readJson<Query[]>(join(DATA, "annotations", `${repo.name}.json`));
    for (const q of queries) {
      const labels = [...q.relevant, ...q.secondary].map(labelPath);
      const o: Outcome = { repo: repo.name, language: repo.language, category: q.category, query: q.query, ndcg: {}, ms: {}, top: {}, labels };
      for (const m of METHODS) {
        if (m !== "bm25" && !ACTIONS.includes(m)) continue;
        const r = await rankWith(store, m, q.query, bm25);
        o.ndcg[m] = sembleNdcg(r.files, labels);
        o.ms[m] = r.ms;
        o.top[m] = r.files.slice(0, 10);
      }
      outcomes.push(o);
    }
  } finally {
    await store.app.close();
  }
  return { outcomes, ingestSeconds: store.ingestSeconds, files: store.texts.size, note: [tree.note, store.cached ? "cached store" : ""].filter(Boolean).join("; ") };
}

const f3 = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? "    - " : x.toFixed(3).padStart(6));

/** Mean of per-repo means of a method over some outcomes (repos without any left out). */
function macro(rows: readonly Outcome[], m: Method): number | undefined {
  const repos = [...new Set(rows.map((r) => r.repo))];
  const means = repos.flatMap((repo) => {
    const xs = rows.filter((r) => r.repo === repo && r.ndcg[m] !== undefined).map((r) => r.ndcg[m]!);
    return xs.length > 0 ? [mean(xs)] : [];
  });
  return means.length > 0 ? mean(means) : undefined;
}

function micro(rows: readonly Outcome[], m: Method): number | undefined {
  const xs = rows.flatMap((r) => (r.ndcg[m] === undefined ? [] : [r.ndcg[m]!]));
  return xs.length > 0 ? mean(xs) : undefined;
}

function table(title: string, groups: Array<[string, Outcome[]]>, published?: (key: string) => [number | undefined, number | undefined]): void {
  console.log(`\n${title}`);
  console.log(`  ${"".padEnd(22)}     n   pack  query   core   bm25  semble  semble-bm25`);
  for (const [key, rows] of groups) {
    const [s, sb] = published ? published(key) : [undefined, undefined];
    console.log(`  ${key.padEnd(22)} ${String(rows.length).padStart(5)} ${f3(macro(rows, "pack"))} ${f3(macro(rows, "query"))} ${f3(macro(rows, "core"))} ${f3(macro(rows, "bm25"))}  ${f3(s)}  ${f3(sb)}`);
  }
}

const groupBy = (rows: readonly Outcome[], key: (o: Outcome) => string): Array<[string, Outcome[]]> =>
  [...new Set(rows.map(key))].sort().map((k) => [k, rows.filter((r) => key(r) === k)]);

function showMisses(rows: readonly Outcome[]): void {
  const first = METHODS.find((m) => ACTIONS.includes(m)) ?? "bm25";
  const misses = rows.filter((r) => (r.ndcg[first] ?? 1) < 1).sort((a, b) => (a.ndcg[first] ?? 0) - (b.ndcg[first] ?? 0)).slice(0, SHOW);
  for (const o of misses) {
    console.log(`\n--- ${o.repo} [${o.category}] ${o.query}  ${METHODS.map((m) => `${m} ${f3(o.ndcg[m])}`).join(" ")}`);
    console.log(`    labels: ${o.labels.join(", ")}`);
    for (const m of METHODS) if (o.top[m]) console.log(`    ${m.padEnd(5)}: ${o.top[m]!.slice(0, 6).join(", ")}`);
  }
}

function report(outcomes: readonly Outcome[], published: Map<string, Published>, timings: { ingest: number; files: number }): void {
  const pub = (repos: string[]): [number | undefined, number | undefined] => {
    const rows = repos.flatMap((r) => (published.has(r) ? [published.get(r)!] : []));
    const of = (key: string) => {
      const xs = rows.filter((p) => typeof p[key] === "number").map((p) => Number(p[key]));
      return xs.length > 0 ? mean(xs) : undefined;
    };
    return [of("semble"), of("semble-bm25")];
  };
  const reposOf = (rows: readonly Outcome[]) => [...new Set(rows.map((r) => r.repo))];
  table("per repository (NDCG@10)", groupBy(outcomes, (o) => o.repo), (k) => pub([k]));
  const byLang = groupBy(outcomes, (o) => o.language);
  table("per language (mean of per-repo means)", byLang, (k) => pub(reposOf(byLang.find(([l]) => l === k)![1])));
  table("per category (mean of per-repo means)", groupBy(outcomes, (o) => o.category));
  table("overall (mean of per-repo means)", [["all", [...outcomes]]], () => pub(reposOf(outcomes)));
  console.log(`  mean over all queries: ${METHODS.map((m) => `${m} ${f3(micro(outcomes, m))}`).join(", ")}`);
  const load = loadavg().map((x) => x.toFixed(2)).join(", ");
  for (const m of METHODS) {
    const ms = outcomes.flatMap((o) => (o.ms[m] === undefined ? [] : [o.ms[m]!]));
    if (ms.length > 0) console.log(`  ${LABEL[m].padEnd(18)} p50 ${percentile(ms, 50).toFixed(1)} ms, p95 ${percentile(ms, 95).toFixed(1)} ms`);
  }
  console.log(`  index: ${timings.files} files, ${timings.ingest.toFixed(1)} s (cached stores: as measured when made); load average ${load}`);
}

async function main(): Promise<void> {
  const repos = readJson<SembleRepo[]>(join(DATA, "repos.json")).filter((r) => REPOS.length === 0 || REPOS.includes(r.name));
  const published = new Map(readJson<Published[]>(join(DATA, "published-per-repo.json")).map((p) => [String(p["repo"]), p]));
  const outcomes: Outcome[] = [];
  const timings = { ingest: 0, files: 0 };
  for (const repo of repos) {
    const r = await runRepo(repo);
    outcomes.push(...r.outcomes);
    timings.ingest += r.ingestSeconds;
    timings.files += r.files;
    console.log(`${repo.name} (${repo.language}): ${r.files} files, ${r.outcomes.length} queries, ingest ${r.ingestSeconds.toFixed(1)} s${r.note ? `; ${r.note}` : ""}`);
  }
  report(outcomes, published, timings);
  if (SHOW > 0) showMisses(outcomes);
  mkdirSync(new URL("results/", import.meta.url), { recursive: true });
  const summary = { at: new Date().toISOString(), budget: BUDGET, load: loadavg(), ...Object.fromEntries(METHODS.map((m) => [m, macro(outcomes, m)])) };
  writeFileSync(new URL("results/eval-semble.json", import.meta.url), JSON.stringify({ summary, outcomes }, null, 2));
}

await main();
