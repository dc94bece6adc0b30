/**
 * memory_query on BEIR SciFact against plain BM25 over whole documents, in
 * the same run and on the same store.
 *
 * One Markdown file per abstract (`# title`, blank line, text) is ingested
 * through the real pipeline. For each test claim, documents are ranked by
 * their best returned cell (memory_query, budget large enough to return
 * 100+ documents); the baseline ranks whole documents with FTS5 BM25
 * (porter) for the same terms. Fusion weights are tuned on the train split
 * (`--tune` prints the grid) and only reported on the test split.
 *
 * Usage: node --import tsx bench/eval-scifact.ts (--data DIR | PKS_BENCH_DATA) [--limit N] [--tune | --tune-only] [--store DIR]
 * (`--store DIR` keeps the ingested store in DIR and reuses it on the next run;
 * `--tune-only` prints the train grid and stops before the test split.)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { ensureLocalProject } from "../src/access/local-project.js";
import { createApp } from "../src/app.js";
import type { App } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { ingestBatch } from "../src/ingest/accept/ingest-batch.js";
import { cellSignals, feedbackRanking, fuseSignals, memoryQuery, rankCells } from "../src/retrieve/memory/memory-query.js";
import { DEFAULT_FEEDBACK } from "../src/retrieve/memory/feedback-terms.js";
import type { FeedbackOptions } from "../src/retrieve/memory/feedback-terms.js";
import { DEFAULT_WEIGHTS } from "../src/retrieve/memory/rank-cells.js";
import { searchCells } from "../src/store/search/lexical-search.js";
import { ftsAnyOf, queryTerms } from "../src/retrieve/query-terms.js";
import type { CellSignals } from "../src/retrieve/memory/memory-query.js";
import type { FusionWeights } from "../src/retrieve/memory/rank-cells.js";
import { mean, ndcgAt, parseQrels, percentile, recallAt } from "./lib/ir-metrics.js";
import type { Qrels } from "./lib/ir-metrics.js";
import { benchData } from "./lib/locations.js";

const DATA = pathToFileURL(benchData("scifact/"));
const args = process.argv.slice(2);
const LIMIT = Number(args[args.indexOf("--limit") + 1]) || Infinity;
const TUNE_ONLY = args.includes("--tune-only");
const TUNE = TUNE_ONLY || args.includes("--tune");
const STORE = args.includes("--store") ? args[args.indexOf("--store") + 1] : undefined;

interface Doc { _id: string; title: string; text: string }
interface Query { _id: string; text: string }

function readJsonl<T>(name: string): T[] {
  return readFileSync(new URL(name, DATA), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as T);
}

async function ingestCorpus(app: App, projectId: string, docs: Doc[]): Promise<Map<string, string>> {
  const fileToDoc = new Map<string, string>();
  const existing = await app.deps.db.all<{ file_id: string; path: string }>("SELECT file_id, path FROM files WHERE project_id = ?", [projectId]);
  if (existing.length >= docs.length) {
    for (const f of existing) fileToDoc.set(f.file_id, f.path.replace(/\.md$/, ""));
    return fileToDoc;
  }
  for (let i = 0; i < docs.length; i += 200) {
    const files = docs.slice(i, i + 200).map((d) => ({ path: `${d._id}.md`, bytes: Buffer.from(`# ${d.title}\n\n${d.text}\n`) }));
    const answer = await ingestBatch({ projectId }, { files }, app.tools);
    for (const a of answer.accepted) fileToDoc.set(a.fileId, a.path.replace(/\.md$/, ""));
    app.worker.kick();
  }
  await app.worker.whenIdle();
  return fileToDoc;
}

/** Plain BM25 over whole documents: its own FTS5 table of title + text, same tokenizer and terms. */
async function buildBaseline(app: App, docs: Doc[]): Promise<void> {
  await app.deps.db.execute("DROP TABLE IF EXISTS bench_docs");
  await app.deps.db.execute("CREATE VIRTUAL TABLE bench_docs USING fts5(doc_id UNINDEXED, body, tokenize = 'porter unicode61 remove_diacritics 2')");
  for (let i = 0; i < docs.length; i += 500) {
    const slice = docs.slice(i, i + 500);
    await app.deps.db.execute(
      `INSERT INTO bench_docs (doc_id, body) VALUES ${slice.map(() => "(?, ?)").join(", ")}`,
      slice.flatMap((d) => [d._id, `${d.title} ${d.text}`]),
    );
  }
}

async function baselineRanking(app: App, query: string): Promise<string[]> {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  const rows = await app.deps.db.all<{ doc_id: string }>(
    "SELECT doc_id FROM bench_docs WHERE bench_docs MATCH ? ORDER BY bm25(bench_docs) LIMIT 100",
    [ftsAnyOf(terms)],
  );
  return rows.map((r) => r.doc_id);
}

/** Documents in the order of their best cell in the ranking. */
function documentsOf(cellFileIds: readonly string[], fileToDoc: Map<string, string>): string[] {
  const seen = new Set<string>();
  for (const f of cellFileIds) {
    const d = fileToDoc.get(f);
    if (d && !seen.has(d)) seen.add(d);
  }
  return [...seen].slice(0, 100);
}

async function score(queries: Query[], qrels: Qrels, rank: (q: string) => Promise<string[]>) {
  const ndcg: number[] = [];
  const recall: number[] = [];
  const ms: number[] = [];
  for (const q of queries) {
    const judged = qrels.get(q._id);
    if (!judged) continue;
    const t = performance.now();
    const ranking = await rank(q.text);
    ms.push(performance.now() - t);
    ndcg.push(ndcgAt(ranking, judged, 10));
    recall.push(recallAt(ranking, judged, 100));
  }
  return { ndcg10: mean(ndcg), recall100: mean(recall), p50: percentile(ms, 50), p95: percentile(ms, 95), n: ndcg.length };
}

async function main(): Promise<void> {
  const root = STORE ?? mkdtempSync(join(tmpdir(), "pks-scifact-"));
  mkdirSync(root, { recursive: true });
  const app = await createApp(loadConfig({ root, db: `file:${join(root, "pks.db")}` }, { PKS_LOG: "silent" }));
  try {
    const docs = readJsonl<Doc>("corpus.jsonl").slice(0, LIMIT);
    const queries = readJsonl<Query>("queries.jsonl");
    const test = parseQrels(readFileSync(new URL("qrels/test.tsv", DATA), "utf8"));
    const train = parseQrels(readFileSync(new URL("qrels/train.tsv", DATA), "utf8"));
    const local = await ensureLocalProject(app.deps.db, root);
    const t0 = performance.now();
    const fileToDoc = await ingestCorpus(app, local.projectId, docs);
    const ingestSeconds = (performance.now() - t0) / 1000;
    await buildBaseline(app, docs);
    const counts = await app.deps.db.get<{ files: number; factions: number; cells: number; entities: number }>(
      `SELECT (SELECT count(*) FROM files) AS files, (SELECT count(*) FROM factions WHERE retired_at IS NULL) AS factions,
              (SELECT count(*) FROM cells WHERE retired_at IS NULL) AS cells, (SELECT count(*) FROM entities) AS entities`,
    );
    const projectIds = [local.projectId];
    const ours = (weights?: FusionWeights) => async (q: string) =>
      documentsOf((await rankCells(app.deps.db, projectIds, { query: q, weights })).cells.map((c) => c.fileId), fileToDoc);
    const packed = async (q: string) => {
      const a = await memoryQuery(app.db, { projectIds }, { query: q, budget: 60_000 }, app.tools);
      const fileOf = new Map((await app.deps.db.all<{ cell_id: string; file_id: string }>(
        `SELECT cell_id, file_id FROM cells WHERE cell_id IN (${a.cells.map(() => "?").join(",") || "''"})`, a.cells.map((c) => c.cellId))).map((r) => [r.cell_id, r.file_id]));
      return documentsOf(a.cells.map((c) => fileOf.get(c.cellId) ?? ""), fileToDoc);
    };
    if (TUNE) await tune(app, projectIds, queries, train, fileToDoc);
    if (TUNE_ONLY) return;
    const testQueries = queries.filter((q) => test.has(q._id));
    const baseline = await score(testQueries, test, (q) => baselineRanking(app, q));
    const mq = await score(testQueries, test, packed);
    const ranked = await score(testQueries, test, ours());
    const latency = await latencies(app, projectIds, testQueries);
    const result = { corpus: { ...counts, ingestSeconds: Number(ingestSeconds.toFixed(1)) }, baseline, memoryQuery: mq, rankOnly: ranked, latency };
    print(result);
    mkdirSync(new URL("results/", import.meta.url), { recursive: true });
    writeFileSync(new URL("results/eval-scifact.json", import.meta.url), JSON.stringify(result, null, 2));
  } finally {
    await app.close();
    if (!STORE) rmSync(root, { recursive: true, force: true });
  }
}

/** memory_query at the default budget against a bare FTS5 top-50 cell query, same store, same queries. */
async function latencies(app: App, projectIds: string[], queries: Query[]) {
  const bare: number[] = [];
  const mq: number[] = [];
  for (const q of queries) {
    const match = ftsAnyOf(queryTerms(q.text));
    let t = performance.now();
    await searchCells(app.deps.db, projectIds, match, 50);
    bare.push(performance.now() - t);
    t = performance.now();
    await memoryQuery(app.db, { projectIds }, { query: q.text, budget: 4096 }, app.tools);
    mq.push(performance.now() - t);
  }
  const p = (xs: number[]) => ({ p50: Number(percentile(xs, 50).toFixed(1)), p95: Number(percentile(xs, 95).toFixed(1)) });
  return { bareFts: p(bare), memoryQuery4096: p(mq), p95Ratio: Number((percentile(mq, 95) / percentile(bare, 95)).toFixed(2)) };
}

/**
 * The fusion grid on the train split (all its queries): each query's
 * signals are gathered once (cellSignals), then fused per weighting; a
 * feedback variant (`PKS_FEEDBACK_VARIANTS`, a JSON list of partial
 * FeedbackOptions) searches again only its expanded query (feedbackRanking).
 * The test split is never scored while tuning. DEFAULT_WEIGHTS is this
 * grid's best on train (see its JSDoc).
 */
async function tune(app: App, projectIds: string[], queries: Query[], train: Qrels, fileToDoc: Map<string, string>) {
  const trainQueries = queries.filter((q) => train.has(q._id));
  const t0 = performance.now();
  const signals: CellSignals[] = [];
  for (const q of trainQueries) signals.push(await cellSignals(app.deps.db, projectIds, { query: q.text }));
  console.log(`train signals gathered in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const base = await score(trainQueries, train, (q) => baselineRanking(app, q));
  console.log(`train BM25 whole documents: nDCG@10 ${base.ndcg10.toFixed(4)} R@100 ${base.recall100.toFixed(4)} (n=${base.n})`);
  const report = (label: string, sig: CellSignals[], weights?: FusionWeights) => {
    const ndcg: number[] = [];
    const recall: number[] = [];
    trainQueries.forEach((q, i) => {
      const ranking = documentsOf(fuseSignals(sig[i]!, weights).map((c) => c.fileId), fileToDoc);
      ndcg.push(ndcgAt(ranking, train.get(q._id)!, 10));
      recall.push(recallAt(ranking, train.get(q._id)!, 100));
    });
    console.log(`train ${label}: nDCG@10 ${mean(ndcg).toFixed(4)} R@100 ${mean(recall).toFixed(4)} (n=${ndcg.length})`);
    return mean(ndcg);
  };
  report(`default ${JSON.stringify(DEFAULT_WEIGHTS)}`, signals);
  for (const [label, weights] of [
    ["cell alone", { cell: 1, document: 0, graph: 0 }],
    ["document alone", { cell: 0, document: 1, graph: 0 }],
    ["feedback alone", { cell: 0, document: 0, graph: 0, feedback: 1 }],
    ["graph alone", { cell: 0, document: 0, graph: 1 }],
  ] as const) report(label, signals, weights);
  const results: Array<[number, string]> = [];
  for (const cell of [0.5, 1, 1.5]) for (const graph of [0.5, 1]) for (const feedback of [0, 1, 2, 3, 4, 6]) {
    const weights: FusionWeights = { cell, document: 3, graph, feedback };
    results.push([report(JSON.stringify(weights), signals, weights), JSON.stringify(weights)]);
  }
  console.log("best on train:", results.sort((x, y) => y[0] - x[0]).slice(0, 3));
  const variants = JSON.parse(process.env.PKS_FEEDBACK_VARIANTS ?? "[]") as Array<Partial<FeedbackOptions>>;
  for (const v of variants) {
    const options = { ...DEFAULT_FEEDBACK, ...v };
    const varied = [];
    for (const [i, q] of trainQueries.entries()) {
      const s = signals[i]!;
      // The walk's extra cells (score 0) are not part of the first ranking feedback reads.
      const pool = s.pool.filter((c) => c.score > 0);
      varied.push({ ...s, feedback: await feedbackRanking(app.deps.db, projectIds, queryTerms(q.text), s.files, pool, undefined, options) });
    }
    report(`feedback ${JSON.stringify(options)}`, varied);
  }
}

function print(r: {
  corpus: object;
  baseline: Awaited<ReturnType<typeof score>>;
  memoryQuery: Awaited<ReturnType<typeof score>>;
  rankOnly: Awaited<ReturnType<typeof score>>;
  latency: Awaited<ReturnType<typeof latencies>>;
}) {
  console.log("corpus:", JSON.stringify(r.corpus));
  const row = (name: string, s: Awaited<ReturnType<typeof score>>) =>
    `${name.padEnd(28)} nDCG@10 ${s.ndcg10.toFixed(4)}  R@100 ${s.recall100.toFixed(4)}  p50 ${s.p50.toFixed(1)} ms  p95 ${s.p95.toFixed(1)} ms  (n=${s.n})`;
  console.log(row("BM25 whole documents", r.baseline));
  console.log(row("memory_query (packed)", r.memoryQuery));
  console.log(row("memory_query ranking", r.rankOnly));
  console.log(`nDCG@10 ratio to BM25: ${(r.memoryQuery.ndcg10 / r.baseline.ndcg10).toFixed(3)}`);
  console.log(`latency at budget 4096: ${JSON.stringify(r.latency)}`);
}

await main();
