/**
 * Runs fuzzed requests one after another against a world, checking each
 * answer (answer-checks.ts) and the store around refusals (digest.ts), and
 * counts what happened: runs, statuses, 5xx, digest changes, latency. Each
 * problem is kept with its reproduction (request, label, answer).
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { TestWorld } from "../test-app.js";
import { answerProblems, toolResultProblems } from "./answer-checks.js";
import type { ToolResult } from "./answer-checks.js";
import { DigestWatch } from "./digest.js";
import type { FuzzRequest, FuzzToolCall } from "./requests.js";

/** What one target's run came to. */
export interface FuzzStats {
  target: string;
  runs: number;
  statuses: Record<number, number>;
  fiveXx: number;
  /** Calls that threw instead of answering (an HTTP app that threw, an MCP protocol error). */
  crashes: number;
  digestChanges: number;
  digests: number;
  maxLatencyMs: number;
  /** Each problem with its reproduction (at most 20 kept). */
  problems: string[];
}

/** The seed of one target in a run: the run's seed mixed with the target's name, so targets draw independently. */
export function seedFor(seed: number, target: string): number {
  return (seed ^ createHash("sha256").update(target).digest().readInt32LE(0)) | 0;
}

/** `runs` values of an arbitrary from a seed (the same seed, the same values). */
export function drawn<T>(arb: fc.Arbitrary<T>, seed: number, runs: number): T[] {
  return fc.sample(arb, { seed, numRuns: runs });
}

const MAX_KEPT = 20;
const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

function newStats(target: string): FuzzStats {
  return { target, runs: 0, statuses: {}, fiveXx: 0, crashes: 0, digestChanges: 0, digests: 0, maxLatencyMs: 0, problems: [] };
}

/** `FUZZ_VERBOSE=1` prints every request and its answer. */
const VERBOSE = Boolean(process.env.FUZZ_VERBOSE);

function record(stats: FuzzStats, status: number, ms: number, problems: string[], repro: () => string): void {
  if (VERBOSE) console.log(`${stats.target} #${stats.runs}: ${repro()}`);
  stats.runs++;
  stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
  if (status >= 500) stats.fiveXx++;
  stats.maxLatencyMs = Math.max(stats.maxLatencyMs, ms);
  if (problems.length > 0 && stats.problems.length < MAX_KEPT) stats.problems.push(`${problems.join("; ")}\n    ${repro()}`);
}

/** Object.prototype must come out of a run as it went in. */
function pollution(): string[] {
  const own = Object.getOwnPropertyNames(Object.prototype);
  return ["polluted", "isAdmin"].filter((k) => own.includes(k) || (Object.prototype as Record<string, unknown>)[k] !== undefined);
}

function finishStats(stats: FuzzStats, watch: DigestWatch): FuzzStats {
  stats.digestChanges = watch.changes.length;
  stats.digests = watch.digests;
  for (const c of watch.changes.slice(0, 5)) stats.problems.push(c);
  const polluted = pollution();
  if (polluted.length > 0) stats.problems.push(`Object.prototype polluted: ${polluted.join(", ")}`);
  return stats;
}

const isSampled = (i: number, every: number) => i % every === every - 1;

/** Sends each request to the world's HTTP app (no server), checking every answer and the store around refusals. */
export async function fuzzHttp(w: TestWorld, target: string, requests: readonly FuzzRequest[], sampleEvery = 10): Promise<FuzzStats> {
  const stats = newStats(target);
  const watch = new DigestWatch(w.app.deps.db, () => Promise.all([w.app.worker.whenIdle(), w.app.tasks.whenIdle()]).then(() => undefined));
  for (const [i, req] of requests.entries()) {
    const watched = { sampled: isSampled(i, sampleEvery), mayWrite: req.method !== "GET" };
    await watch.before(watched);
    const body = req.body?.();
    const bodyText = body === undefined ? "" : typeof body === "string" ? body : Buffer.from(body).toString("utf8");
    const carried = `${req.url}\n${Object.values(req.headers).join("\n")}\n${bodyText}`;
    const repro = (answer: string) => `${req.method} ${clip(req.url)} [${req.label}] body: ${clip(JSON.stringify(bodyText))} → ${answer}`;
    const started = performance.now();
    let status: number;
    let problems: string[];
    let answerText: string;
    try {
      const res = await w.app.http.request(`http://127.0.0.1:8787${req.url}`, { method: req.method, headers: req.headers, body });
      answerText = await res.text();
      status = res.status;
      problems = answerProblems({ status, text: answerText, contentType: res.headers.get("content-type") }, carried, [w.root]);
    } catch (err) {
      stats.crashes++;
      status = -1;
      answerText = String(err);
      problems = [`the app threw: ${String(err)}`];
    }
    record(stats, status, performance.now() - started, problems, () => repro(`${status} ${clip(answerText)}`));
    await watch.after(watched, status, repro(String(status)).slice(0, 400));
  }
  await watch.check();
  return finishStats(stats, watch);
}

/** Calls each tool over an MCP client; a call must give a result (`isError` for a refusal), never a protocol error. */
export async function fuzzMcp(w: TestWorld, client: Client, target: string, calls: readonly FuzzToolCall[], sampleEvery = 10): Promise<FuzzStats> {
  const stats = newStats(target);
  const watch = new DigestWatch(w.app.deps.db, () => Promise.all([w.app.worker.whenIdle(), w.app.tasks.whenIdle()]).then(() => undefined));
  for (const [i, call] of calls.entries()) {
    const watched = { sampled: isSampled(i, sampleEvery), mayWrite: !w.app.service.catalog.get(call.name)?.readOnly };
    await watch.before(watched);
    let carried: string;
    try {
      carried = JSON.stringify(call.arguments) ?? "";
    } catch {
      carried = "";
    }
    const repro = (answer: string) => `tools/call ${JSON.stringify(call.name)} [${call.label}] arguments: ${clip(carried)} → ${answer}`;
    const started = performance.now();
    let status: number;
    let problems: string[];
    let answerText: string;
    try {
      const result = (await client.callTool({ name: call.name, arguments: call.arguments })) as ToolResult;
      answerText = result.content?.[0]?.text ?? "";
      ({ status, problems } = toolResultProblems(result, carried, [w.root]));
    } catch (err) {
      answerText = String(err);
      if (unknownToolRefusal(w, call.name, err)) {
        status = -32602;
        problems = [];
      } else {
        stats.crashes++;
        status = -1;
        problems = [`protocol error: ${String(err)}`];
      }
    }
    record(stats, status, performance.now() - started, problems, () => repro(`${status} ${clip(answerText)}`));
    await watch.after(watched, status, repro(String(status)).slice(0, 400));
  }
  await watch.check();
  return finishStats(stats, watch);
}

/** A name that is no tool is the protocol's invalid-params error (-32602) naming it; nothing else may be a protocol error. */
function unknownToolRefusal(w: TestWorld, name: string, err: unknown): boolean {
  if (w.app.service.catalog.get(name) || (err as { code?: unknown }).code !== -32602) return false;
  const message = String((err as { message?: unknown }).message);
  return name === "" ? message.includes("tools/call needs params.name") : message.includes(`unknown tool ${JSON.stringify(name)}`);
}

/** One line of figures for a target. */
export function formatStats(s: FuzzStats): string {
  const statuses = Object.entries(s.statuses)
    .map(([k, v]) => `${k}:${v}`)
    .join(" ");
  return `${s.target.padEnd(52)} runs ${s.runs}  5xx ${s.fiveXx}  crashes ${s.crashes}  digest changes ${s.digestChanges}/${s.digests}  max ${s.maxLatencyMs.toFixed(0)} ms  statuses ${statuses}`;
}

/** The failure text of a run: its seed, how to replay it, and each problem with its reproduction. */
export function problemReport(s: FuzzStats, seed: number, replay: string): string {
  return `${s.target}: ${s.problems.length} problem(s), seed ${seed} (replay: ${replay})\n  ${s.problems.join("\n  ")}`;
}
