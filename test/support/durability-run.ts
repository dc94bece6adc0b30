/**
 * The kill -9 durability scenario (RELIABILITY.md §5). A real `pks serve`
 * child on a temp database is driven with ingests, re-ingests and content
 * replacements over HTTP and killed with SIGKILL at chosen moments: while
 * requests are in flight, while the worker is reading a big file, while it
 * boots, or at a random time. After every kill a copy of the database is
 * checked; after the last restart the queue must drain, the lease must take a
 * new ingest, and the database is checked once more after a clean stop.
 *
 * The kill schedule (modes, delays) replays exactly from the seed; the
 * workload's contents replay too, but their order interleaves with network
 * timing, and so does which moment a "reading" kill takes. Run by test/soak/durability.test.ts (random seed, many kills) and
 * test/integration/durability.test.ts (fixed seed, a few kills).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { checkDatabaseFile, sha256Hex, snapshotDatabase } from "./durability-checks.js";
import type { CheckReport, ExpectedFile } from "./durability-checks.js";
import { spawnServe } from "./spawn-pks.js";
import type { ServedPks, StartingPks } from "./spawn-pks.js";

const SERVER_ENV = { PKS_RATE_LIMIT: "100000", PKS_LOG: "stderr" };
const MAX_IN_FLIGHT = 3;

/** A small seeded generator (mulberry32): the run prints its seed so a failure can be replayed. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number): boolean => next() < p,
  };
}
type Rng = ReturnType<typeof seeded>;

const WORDS = (
  "river stone ledger market harbor signal garden copper lantern meadow orchard valley bridge tower canal " +
  "winter summer autumn spring morning evening quiet bright narrow broad ancient modern simple careful steady " +
  "reader writer builder keeper trader sailor farmer painter teacher doctor baker weaver potter miller " +
  "carries measures follows records repairs gathers shapes guards opens closes turns holds finds keeps sends " +
  "the a every some each its their under over beside across through within beyond along against toward"
).split(" ");

function sentence(rng: Rng): string {
  const words = Array.from({ length: rng.int(5, 14) }, () => rng.pick(WORDS));
  const text = words.join(" ");
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

/** A Markdown document of about `lines` lines: headings, paragraphs and lists of plain sentences. */
function markdownDoc(rng: Rng, lines: number): string {
  const out = [`# ${sentence(rng).slice(0, -1)}`, ""];
  while (out.length < lines) {
    const kind = rng.int(0, 9);
    if (kind === 0) out.push(`## ${sentence(rng).slice(0, -1)}`);
    else if (kind <= 2) for (let i = rng.int(2, 6); i > 0; i--) out.push(`- ${sentence(rng)}`);
    else for (let i = rng.int(1, 4); i > 0; i--) out.push(`${sentence(rng)} ${sentence(rng)}`);
    out.push("");
  }
  return `${out.join("\n")}\n`;
}

/** Plain text: paragraphs of sentences. */
function plainDoc(rng: Rng, lines: number): string {
  const out: string[] = [];
  while (out.length < lines) {
    for (let i = rng.int(1, 5); i > 0; i--) out.push(`${sentence(rng)} ${sentence(rng)}`);
    out.push("");
  }
  return `${out.join("\n")}\n`;
}

/** The same text with a few lines changed or a paragraph inserted (lines below move). */
function editDoc(rng: Rng, text: string): string {
  const lines = text.split("\n");
  for (let e = rng.int(1, 3); e > 0; e--) {
    const at = rng.int(1, Math.max(1, lines.length - 2));
    if (rng.chance(0.5) && lines[at] !== "" && !lines[at]!.startsWith("#")) lines[at] = `${sentence(rng)} ${sentence(rng)}`;
    else lines.splice(at, 0, "", `${sentence(rng)}`, "");
  }
  return lines.join("\n");
}

interface PathSpec {
  path: string;
  make(rng: Rng): string;
}

/** The paths the run writes: a few big Markdown files (reading them takes a while), small notes, plain text. */
const PATHS: readonly PathSpec[] = [
  ...Array.from({ length: 4 }, (_, i) => ({ path: `docs/big-${i}.md`, make: (rng: Rng) => markdownDoc(rng, rng.int(1500, 3000)) })),
  ...Array.from({ length: 10 }, (_, i) => ({ path: `notes/note-${i}.md`, make: (rng: Rng) => markdownDoc(rng, rng.int(3, 80)) })),
  ...Array.from({ length: 2 }, (_, i) => ({ path: `notes/plain-${i}.txt`, make: (rng: Rng) => plainDoc(rng, rng.int(5, 200)) })),
];

/** What the client knows about one path. */
interface PathState {
  fileId: string | undefined;
  ackedSha: string | undefined;
  lastText: string | undefined;
  /** Attempts sent since the last acknowledgement that got no answer. */
  pending: Set<string>;
  busy: boolean;
}

/** The client's record of what the server acknowledged. */
class Model {
  readonly paths = new Map<string, PathState>(PATHS.map((p) => [p.path, { fileId: undefined, ackedSha: undefined, lastText: undefined, pending: new Set(), busy: false }]));
  leaseId: string | undefined;
  /** Acknowledged calls that add one to the corpus version. */
  ackedBumps = 0;
  /** Unanswered calls that may have added one. */
  unansweredBumps = 0;
  acks = 0;
  unanswered = 0;
  /** When an ingest carrying a big file was last acknowledged (the worker reads it next). */
  bigAckAt = 0;
  /** Anything an answer said that it must not. */
  readonly surprises: string[] = [];

  state(path: string): PathState {
    return this.paths.get(path)!;
  }

  acknowledge(path: string, sha: string, fileId: string): void {
    const s = this.state(path);
    if (s.fileId && s.fileId !== fileId) this.surprises.push(`${path}: acknowledged as ${fileId}, earlier as ${s.fileId}`);
    s.fileId = fileId;
    s.ackedSha = sha;
    s.pending.clear();
  }

  seeLease(leaseId: unknown): void {
    if (typeof leaseId !== "string") this.surprises.push(`an answer carried no leaseId`);
    else if (this.leaseId === undefined) this.leaseId = leaseId;
    else if (leaseId !== this.leaseId) this.surprises.push(`leaseId ${leaseId}, earlier ${this.leaseId}`);
  }

  /** What the database must show now, copied so later calls do not change it. */
  expectation(): Expectation {
    return {
      files: [...this.paths].map(([path, s]) => ({ path, fileId: s.fileId, ackedSha: s.ackedSha, pendingShas: new Set(s.pending) })),
      leaseId: this.leaseId,
      versionRange: [this.ackedBumps, this.ackedBumps + this.unansweredBumps],
      surprises: [...this.surprises],
    };
  }
}

/** The client's view at one moment: what a check holds the database to. */
interface Expectation {
  files: ExpectedFile[];
  leaseId: string | undefined;
  /** The corpus version lies in this range: acknowledged bumps, plus unanswered ones that may have landed. */
  versionRange: [number, number];
  surprises: string[];
}

/** One `pks serve` child. */
type Server = ServedPks;
type Booting = StartingPks;

function spawnServer(root: string): Booting {
  // The folder stays empty and unsynced: every file comes over HTTP, and a
  // folder sync at start would retire what the folder does not hold.
  return spawnServe(root, SERVER_ENV, 30_000);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** One HTTP call; undefined when no answer came back (the server died, or the connection did). */
async function call(server: Server, key: string, method: string, path: string, body?: { json?: unknown; bytes?: Uint8Array }): Promise<Answer | undefined> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  let payload: RequestInit["body"];
  if (body?.json !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body.json);
  } else if (body?.bytes) {
    headers["content-type"] = "application/octet-stream";
    payload = body.bytes;
  }
  try {
    const res = await fetch(`${server.rest}${path}`, { method, headers, body: payload, signal: AbortSignal.timeout(60_000) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  } catch {
    return undefined;
  }
}

/** The next version of a path's text: new, edited, or (sometimes) the same bytes again. */
function nextText(rng: Rng, spec: PathSpec, s: PathState): string {
  if (s.lastText !== undefined && rng.chance(0.1)) return s.lastText;
  if (s.lastText !== undefined && rng.chance(0.6)) return editDoc(rng, s.lastText);
  return spec.make(rng);
}

interface Ctx {
  rng: Rng;
  model: Model;
  server: Server;
  key: string;
}

/** POST /ingest with one to three files. */
async function ingestOp(ctx: Ctx, specs: PathSpec[]): Promise<void> {
  const { model, server, key, rng } = ctx;
  const files = specs.map((spec) => {
    const s = model.state(spec.path);
    const text = nextText(rng, spec, s);
    s.lastText = text;
    const bytes = Buffer.from(text);
    const sha = sha256Hex(bytes);
    s.pending.add(sha);
    return { path: spec.path, sha, content: bytes.toString("base64") };
  });
  const answer = await call(server, key, "POST", `/projects/${server.projectId}/ingest`, {
    json: { files: files.map((f) => ({ path: f.path, content: f.content })) },
  });
  if (!answer) {
    model.unanswered++;
    model.unansweredBumps++;
    return;
  }
  if (answer.status !== 200) {
    model.surprises.push(`ingest answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    return;
  }
  model.acks++;
  model.ackedBumps++;
  model.seeLease(answer.body.leaseId);
  const accepted = answer.body.accepted as Array<{ fileId: string; path: string }>;
  const refused = answer.body.refused as Array<{ path: string; reason: string }>;
  if (refused.length > 0) model.surprises.push(`refused: ${JSON.stringify(refused)}`);
  for (const f of files) {
    const a = accepted.find((x) => x.path === f.path);
    if (a) model.acknowledge(f.path, f.sha, a.fileId);
  }
  if (files.some((f) => f.path.startsWith("docs/"))) model.bigAckAt = Date.now();
}

/** PUT the bytes as a chunk, then PUT the file's content to point at it. */
async function replaceOp(ctx: Ctx, spec: PathSpec): Promise<void> {
  const { model, server, key, rng } = ctx;
  const s = model.state(spec.path);
  const text = nextText(rng, spec, s);
  s.lastText = text;
  const bytes = Buffer.from(text);
  const sha = sha256Hex(bytes);
  const chunk = await call(server, key, "PUT", `/projects/${server.projectId}/chunks/sha256:${sha}`, { bytes });
  if (!chunk) return;
  if (chunk.status !== 200) {
    model.surprises.push(`chunk upload answered ${chunk.status}: ${JSON.stringify(chunk.body).slice(0, 300)}`);
    return;
  }
  s.pending.add(sha);
  const answer = await call(server, key, "PUT", `/projects/${server.projectId}/files/${s.fileId}/content`, {
    json: { chunkId: `sha256:${sha}`, fileSize: bytes.byteLength },
  });
  if (!answer) {
    model.unanswered++;
    model.unansweredBumps++;
    return;
  }
  if (answer.status !== 200) {
    model.surprises.push(`replacement answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    return;
  }
  model.acks++;
  model.ackedBumps++;
  model.acknowledge(spec.path, sha, String(answer.body.fileId));
}

/** Picks and starts one operation on paths nobody else is writing; undefined when all are busy. */
function nextOp(ctx: Ctx): Promise<void> | undefined {
  const { rng, model } = ctx;
  const free = PATHS.filter((p) => !model.state(p.path).busy);
  if (free.length === 0) return undefined;
  const replaceable = free.filter((p) => model.state(p.path).fileId !== undefined);
  const big = free.filter((p) => p.path.startsWith("docs/"));
  let chosen: PathSpec[];
  let run: () => Promise<void>;
  if (replaceable.length > 0 && rng.chance(0.3)) {
    const spec = rng.pick(replaceable);
    chosen = [spec];
    run = () => replaceOp(ctx, spec);
  } else {
    const first = big.length > 0 && rng.chance(0.35) ? rng.pick(big) : rng.pick(free);
    chosen = [first, ...free.filter((p) => p !== first && rng.chance(0.12)).slice(0, 2)];
    run = () => ingestOp(ctx, chosen);
  }
  for (const p of chosen) model.state(p.path).busy = true;
  return run().finally(() => {
    for (const p of chosen) model.state(p.path).busy = false;
  });
}

/** Keeps up to MAX_IN_FLIGHT operations running until stopped. */
function startDriver(ctx: Ctx) {
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const done = (async () => {
    while (!stopped) {
      if (inFlight.size >= MAX_IN_FLIGHT) {
        await Promise.race(inFlight);
        continue;
      }
      const op = nextOp(ctx);
      if (!op) {
        await sleep(5);
        continue;
      }
      const tracked: Promise<void> = op.finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
      await sleep(ctx.rng.int(0, 40));
    }
    await Promise.allSettled([...inFlight]);
  })();
  return {
    stop: () => {
      stopped = true;
    },
    done,
    inFlight: () => inFlight.size,
  };
}

type KillMode = "in-flight" | "reading" | "random" | "booting";

interface LeaseBody {
  leaseId: string;
  state: string;
  version: number;
  files: { queued: number; reading: number; ready: number; failed: number };
}

/** Waits for the moment to kill, as the mode says; `rng` is the kill schedule's own generator. */
async function killMoment(mode: KillMode, rng: Rng, ctx: Ctx, driver: ReturnType<typeof startDriver>): Promise<void> {
  const { server, key } = ctx;
  if (mode === "random") return sleep(rng.int(0, 1500));
  if (mode === "in-flight") {
    await sleep(rng.int(50, 700));
    for (let waited = 0; driver.inFlight() === 0 && waited < 2000; waited += 2) await sleep(2);
    return sleep(rng.int(0, 15));
  }
  // Reading: soon after a big file was acknowledged, or once the lease shows a file being read.
  // Both delays are drawn up front, so the schedule draws the same numbers whichever comes first.
  const since = Date.now();
  const delay = rng.int(20, 400);
  const afterReading = rng.int(0, 100);
  while (Date.now() - since < 4000) {
    if (ctx.model.bigAckAt > since && Date.now() - ctx.model.bigAckAt >= delay) return;
    const lease = await call(server, key, "GET", `/projects/${server.projectId}/ingest`);
    if (lease?.status === 200 && (lease.body as unknown as LeaseBody).files.reading > 0) return sleep(afterReading);
    await sleep(20);
  }
}

/** Polls the lease until nothing is queued or being read. */
async function waitIdle(server: Server, key: string, timeoutMs: number): Promise<LeaseBody> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const lease = await call(server, key, "GET", `/projects/${server.projectId}/ingest`);
    if (lease?.status === 200 && (lease.body as unknown as LeaseBody).state === "idle") return lease.body as unknown as LeaseBody;
    if (Date.now() > until) throw new Error(`the queue did not drain: ${JSON.stringify(lease?.body)}`);
    await sleep(50);
  }
}

interface KillRecord {
  mode: KillMode;
  inFlight: number;
  interruptedReadings: number;
  queued: number;
}

function assertReport(report: CheckReport, expectation: Expectation, when: string, seed: number): void {
  const problems = [...report.violations, ...expectation.surprises];
  const [low, high] = expectation.versionRange;
  if (report.version < low || report.version > high) problems.push(`corpus version ${report.version} outside [${low}, ${high}]`);
  if (expectation.leaseId && report.leaseId !== expectation.leaseId) problems.push(`lease ${report.leaseId}, acknowledged ${expectation.leaseId}`);
  expect(problems, `${when} (seed ${seed})`).toEqual([]);
}

/** Checks a copy of the database as a killed server left it (the original is left for the next start to recover). */
async function checkAfterKill(dbPath: string, projectId: string, expectation: Expectation, when: string, seed: number): Promise<CheckReport> {
  const snapshot = snapshotDatabase(dbPath);
  try {
    const report = await checkDatabaseFile(snapshot.path, { projectId, expected: expectation.files });
    assertReport(report, expectation, when, seed);
    return report;
  } finally {
    snapshot.dispose();
  }
}

/** Starts the next server while the previous kill's check runs; a failed check stops the new server. */
async function restartWhileChecking(root: string, check: Promise<unknown>): Promise<Server> {
  const booting = spawnServer(root);
  const [started, checked] = await Promise.allSettled([booting.ready, check]);
  if (checked.status === "rejected") {
    await booting.kill("SIGKILL");
    throw checked.reason;
  }
  if (started.status === "rejected") throw started.reason;
  return started.value;
}

/** Starts a server and kills it while it boots (recovering the queue, or already reading); the previous check runs meanwhile. */
async function killWhileBooting(root: string, rng: Rng, check: Promise<unknown>): Promise<{ afterReady: boolean; stderr: string }> {
  const booting = spawnServer(root);
  await sleep(rng.int(100, 2500));
  const afterReady = booting.isReady();
  expect(await booting.kill("SIGKILL")).toBeNull();
  await check;
  return { afterReady, stderr: booting.stderr() };
}

/**
 * How long the last start may take to finish the queued and interrupted
 * readings. A start that resumes all 16 files reads them all again: 30–42 s
 * on a host at load 4–5, past 60 s beside the rest of the suite on two
 * cores. The bound is for a queue that never drains, not a speed target.
 */
const DRAIN_MS = 150_000;

/**
 * The time one run may take: starts, kills, checks and the two drains.
 * Each start from sources also boots the writer thread, which loads its
 * modules through tsx again (a few seconds on a loaded host).
 */
export function durabilityTimeoutMs(kills: number): number {
  return 60_000 + DRAIN_MS + kills * 12_000;
}

export interface DurabilityOptions {
  /** Seeds the kill schedule and the workload; printed so a failure can be replayed. */
  seed: number;
  kills: number;
}

/** Runs the scenario on a fresh temp folder and asserts every invariant; the folder is removed afterwards. */
export async function runDurability({ seed, kills }: DurabilityOptions): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "pks-durability-"));
  const dbPath = join(root, ".pks", "pks.db");
  let current: Server | undefined;
  const start = async (check: Promise<unknown> = Promise.resolve()): Promise<Server> => {
    current = await restartWhileChecking(root, check);
    return current;
  };
  try {
    await scenario(root, dbPath, start, seed, kills);
  } finally {
    await current?.kill("SIGKILL");
    rmSync(root, { recursive: true, force: true });
  }
}

/** One run: `killCount` kills, each followed by a check of the database a killed server left. */
async function scenario(root: string, dbPath: string, start: (check?: Promise<unknown>) => Promise<Server>, seed: number, killCount: number): Promise<void> {
  console.log(`durability: seed ${seed}, ${killCount} kills (replay with DURABILITY_SEED=${seed} DURABILITY_KILLS=${killCount} npm run test:soak)`);
  const started = Date.now();
  // Two generators: the kill schedule (modes, delays) replays exactly from the seed; the
  // workload's draws interleave with network timing, so its contents replay, not its order.
  const schedule = seeded(seed);
  const rng = seeded(seed ^ 0x5bd1e995);
  const model = new Model();
  const kills: KillRecord[] = [];
  let resumedLogs = 0;
  let bootKillsAfterReady = 0;

  let server: Server | undefined = await start();
  const key = server.key!;
  const projectId = server.projectId;
  expect(key, "the first start prints a key").toBeDefined();
  let check: Promise<unknown> = Promise.resolve();
  for (let k = 0; k < killCount; k++) {
    // The first start printed the key: it is not killed while booting.
    const mode = schedule.pick<KillMode>(server ? ["in-flight", "reading", "random"] : ["in-flight", "reading", "random", "booting"]);
    let inFlight = 0;
    if (mode === "booting") {
      const booted = await killWhileBooting(root, schedule, check);
      if (booted.afterReady) bootKillsAfterReady++;
      resumedLogs += (booted.stderr.match(/resuming interrupted readings/g) ?? []).length;
    } else {
      server ??= await start(check);
      expect(server.projectId).toBe(projectId);
      const ctx: Ctx = { rng, model, server, key };
      const driver = startDriver(ctx);
      await killMoment(mode, schedule, ctx, driver);
      driver.stop();
      inFlight = driver.inFlight();
      expect(await server.kill("SIGKILL")).toBeNull();
      await driver.done;
      resumedLogs += (server.stderr().match(/resuming interrupted readings/g) ?? []).length;
      server = undefined;
    }
    check = checkAfterKill(dbPath, projectId, model.expectation(), `after kill ${k + 1} (${mode})`, seed).then((report) => {
      kills.push({ mode, inFlight, interruptedReadings: report.interruptedReadings, queued: report.files.queued ?? 0 });
    });
  }
  server = await start(check);
  expect(server.projectId).toBe(projectId);

  // The last restart: queued and interrupted work resumes and finishes.
  const idle = await waitIdle(server, key, DRAIN_MS);
  resumedLogs += (server.stderr().match(/resuming interrupted readings/g) ?? []).length;
  expect(idle.files).toMatchObject({ queued: 0, reading: 0, failed: 0 });
  expect(idle.leaseId).toBe(model.leaseId);
  expect(idle.version).toBeGreaterThanOrEqual(model.ackedBumps);

  // The lease is usable again: a new ingest is accepted under the same lease.
  const before = model.acks;
  await ingestOp({ rng, model, server, key }, [PATHS[0]!, PATHS[PATHS.length - 1]!]);
  expect(model.acks, `the ingest after the last restart was acknowledged (${model.surprises.join("; ")})`).toBe(before + 1);
  const drained = await waitIdle(server, key, DRAIN_MS);
  expect(drained.leaseId).toBe(model.leaseId);
  expect(drained.files).toMatchObject({ queued: 0, reading: 0, failed: 0 });
  expect(await server.kill("SIGTERM")).toBe(0);

  const report = await checkDatabaseFile(dbPath, { projectId, expected: model.expectation().files, requireSettled: true });
  assertReport(report, model.expectation(), "after the final clean stop", seed);
  expect(report.version).toBe(drained.version);

  const interrupted = kills.filter((x) => x.interruptedReadings > 0).length;
  const withRequests = kills.filter((x) => x.inFlight > 0).length;
  const modes = Object.entries(kills.reduce<Record<string, number>>((m, x) => ({ ...m, [x.mode]: (m[x.mode] ?? 0) + 1 }), {}));
  console.log(
    [
      `durability: seed ${seed}: ${kills.length} kills (${modes.map(([m, n]) => `${m} ${n}`).join(", ")}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      `  kills with requests in flight ${withRequests}, with the worker mid-reading ${interrupted}, while booting ${modes.find(([m]) => m === "booting")?.[1] ?? 0} ` +
        `(${bootKillsAfterReady} after it listened); starts that resumed interrupted readings ${resumedLogs}`,
      `  ${model.acks} acknowledged calls, ${model.unanswered} unanswered; final: ${JSON.stringify(report.files)} files, ` +
        `${report.liveFactions} live factions, ${report.liveCells} live cells, version ${report.version}`,
    ].join("\n"),
  );
}
