/**
 * Hostile documents through the real API and the real reading worker: one
 * reader family at a time, in projects of its own (a fresh one every
 * 512 MiB, so the run never meets the 1 GiB project quota), ingested in
 * batches while a probe keeps asking `GET …/files`. Every accepted file must end `ready` or `failed`
 * before the deadline; nothing may answer 5xx; the probe must keep answering.
 */
import { createProject } from "../../../src/store/access/projects.js";
import { setMembership } from "../../../src/store/access/memberships.js";
import { hostileGenerators, seededRng } from "../hostile-documents.js";
import type { HostileFormat } from "../hostile-documents.js";
import { fileEntry } from "../ingest-helpers.js";
import { send } from "../test-app.js";
import type { TestWorld } from "../test-app.js";
import { seedFor } from "./run-fuzz.js";

/** What one family's run came to. */
export interface HostileStats {
  format: HostileFormat;
  documents: number;
  bytes: number;
  accepted: number;
  refused: number;
  ready: number;
  failed: number;
  /** Why files failed: each distinct error (cut to 80 characters) and how many. */
  failures: Record<string, number>;
  /** Files still queued or being read at the deadline. */
  stuck: number;
  /** Statuses of the ingest calls and probes, by status. */
  statuses: Record<number, number>;
  fiveXx: number;
  probes: number;
  /** The probe's latency (from when it was due): 95th percentile and worst. */
  p95ProbeMs: number;
  maxProbeMs: number;
  wallMs: number;
  /** The process's resident set size (reader threads included) and main-thread heap once the family was read. */
  rssAfter: number;
  heapAfter: number;
  /** Problems with what caused them (stuck files, 5xx, failed probes). */
  problems: string[];
}

/** How many documents, from which seed, and how long reading may take in all. */
export interface HostileRunOptions {
  count: number;
  seed: number;
  deadlineMs: number;
  /** How long no file may settle while some wait before they count as stuck (default 180 s: three of the product's read limits). */
  stallMs?: number;
  probeEveryMs?: number;
  /**
   * Largest document to send: larger draws are drawn again (up to 20 times,
   * then cut). At most (and by default) 16 MiB, the most one ingest call
   * carries once base64 has grown it by a third.
   */
  maxBytes?: number;
}

const MIB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Bytes ingested into one project before the next is made: half the default quota. */
const PROJECT_BYTES = 512 * MIB;
/** Raw bytes of one ingest call, at most: 16 MiB is 21.3 MiB of base64, under the 24 MiB body limit. */
const CALL_BYTES = 16 * MIB;

/** A project of its own for a family's documents, the owner's key reaching it. */
async function newProject(w: TestWorld, format: HostileFormat): Promise<string> {
  const project = await createProject(w.app.deps.db, { name: `hostile-${format}` });
  await setMembership(w.app.deps.db, project.projectId, w.userIds.owner, "owner");
  return project.projectId;
}

/** Ingests `count` hostile documents of one format and waits until each is read, probing the API meanwhile. */
export async function runHostileFamily(w: TestWorld, format: HostileFormat, options: HostileRunOptions): Promise<HostileStats> {
  const started = performance.now();
  const projects = [await newProject(w, format)];
  let projectBytes = 0;
  const stats: HostileStats = {
    format, documents: 0, bytes: 0, accepted: 0, refused: 0, ready: 0, failed: 0, failures: {}, stuck: 0,
    statuses: {}, fiveXx: 0, probes: 0, p95ProbeMs: 0, maxProbeMs: 0, wallMs: 0, rssAfter: 0, heapAfter: 0, problems: [],
  };
  const count = (status: number, what: string) => {
    stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
    if (status >= 500) {
      stats.fiveXx++;
      stats.problems.push(`${what} answered ${status}`);
    }
  };
  const probeMs: number[] = [];
  const probe = startProbe(w, projects[0]!, options.probeEveryMs ?? 100, (status, ms) => {
    stats.probes++;
    probeMs.push(ms);
    stats.maxProbeMs = Math.max(stats.maxProbeMs, ms);
    count(status, "probe GET files");
    if (status !== 200) stats.problems.push(`probe GET files answered ${status}`);
  });
  try {
    const rng = seededRng(seedFor(options.seed, format));
    const generate = hostileGenerators[format];
    let batch: Array<{ path: string; bytes: Uint8Array }> = [];
    let batchBytes = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      if (projectBytes + batchBytes > PROJECT_BYTES) {
        projects.push(await newProject(w, format));
        projectBytes = 0;
      }
      projectBytes += batchBytes;
      const res = await send(w, `/v1/projects/${projects[projects.length - 1]!}/ingest`, {
        method: "POST",
        key: w.keys.owner,
        json: { files: batch.map((d) => fileEntry(d.path, d.bytes)) },
      });
      const text = await res.text();
      count(res.status, `ingest of ${batch.map((d) => `${d.path} (${d.bytes.length} bytes)`).join(", ")}`);
      if (res.status === 200) {
        const answer = JSON.parse(text) as { accepted: unknown[]; refused: unknown[] };
        stats.accepted += answer.accepted.length;
        stats.refused += answer.refused.length;
      } else stats.problems.push(`ingest answered ${res.status}: ${text.slice(0, 200)}`);
      batch = [];
      batchBytes = 0;
    };
    for (let i = 0; i < options.count; i++) {
      const cap = Math.min(options.maxBytes ?? CALL_BYTES, CALL_BYTES);
      const doc = draw(() => generate(rng, options.maxBytes), cap);
      stats.documents++;
      stats.bytes += doc.bytes.length;
      if (batch.length > 0 && (batchBytes + doc.bytes.length > CALL_BYTES || batch.length >= 25)) await flush();
      // Each family's documents get their own folder and index, so random names never collide.
      batch.push({ path: `${format}/${i}-${doc.path.split("/").pop()}`, bytes: doc.bytes });
      batchBytes += doc.bytes.length;
    }
    await flush();
    await settle(w, projects, { deadline: started + options.deadlineMs, stallMs: options.stallMs ?? 180_000 }, stats);
  } finally {
    await probe.stop();
    stats.wallMs = performance.now() - started;
    probeMs.sort((a, b) => a - b);
    stats.p95ProbeMs = probeMs[Math.min(probeMs.length - 1, Math.floor(probeMs.length * 0.95))] ?? 0;
    ({ rss: stats.rssAfter, heapUsed: stats.heapAfter } = process.memoryUsage());
  }
  return stats;
}

/**
 * A document of at most `maxBytes`: drawn again while larger, cut after 20
 * draws. The generators draw within the limit they are given, so this only
 * catches what a mutation grew (and, without a limit, the call's 16 MiB).
 */
function draw(generate: () => { path: string; bytes: Uint8Array }, maxBytes = Number.POSITIVE_INFINITY): { path: string; bytes: Uint8Array } {
  let doc = generate();
  for (let i = 0; i < 20 && doc.bytes.length > maxBytes; i++) doc = generate();
  return doc.bytes.length > maxBytes ? { path: doc.path, bytes: doc.bytes.subarray(0, maxBytes) } : doc;
}

/**
 * Waits until no file of the projects is queued or being read; gives up at
 * the deadline, or when no file has settled for `stallMs`. Counts the outcome.
 */
async function settle(w: TestWorld, projectIds: readonly string[], limits: { deadline: number; stallMs: number }, stats: HostileStats): Promise<void> {
  let settledBefore = -1;
  let progressAt = performance.now();
  const db = w.app.deps.db;
  const inProjects = `project_id IN (${projectIds.map(() => "?").join(", ")})`;
  for (;;) {
    const rows = await db.all<{ status: string; n: number }>(`SELECT status, count(*) AS n FROM files WHERE ${inProjects} GROUP BY status`, [...projectIds]);
    const by = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    const pending = (by.queued ?? 0) + (by.reading ?? 0);
    const settledNow = (by.ready ?? 0) + (by.failed ?? 0);
    if (settledNow !== settledBefore) {
      settledBefore = settledNow;
      progressAt = performance.now();
    }
    const now = performance.now();
    if (pending === 0 || now > limits.deadline || now - progressAt > limits.stallMs) {
      stats.ready = by.ready ?? 0;
      stats.failed = by.failed ?? 0;
      stats.stuck = pending;
      const errors = await db.all<{ error: string | null; n: number }>(
        `SELECT substr(error, 1, 80) AS error, count(*) AS n FROM files WHERE ${inProjects} AND status = 'failed' GROUP BY 1`,
        [...projectIds],
      );
      for (const e of errors) stats.failures[e.error ?? "(none)"] = Number(e.n);
      const settled = stats.ready + stats.failed + stats.stuck;
      if (settled !== stats.accepted) stats.problems.push(`${stats.accepted} files accepted, ${settled} in the project`);
      if (pending > 0) {
        const left = await db.all<{ path: string; status: string; file_size: number }>(
          `SELECT path, status, file_size FROM files WHERE ${inProjects} AND status IN ('queued', 'reading') LIMIT 10`,
          [...projectIds],
        );
        stats.problems.push(`${pending} file(s) not settled (none settled for ${((now - progressAt) / 1000).toFixed(0)} s): ${left.map((f) => `${f.path} ${f.status} ${f.file_size} bytes`).join(", ")}`);
      }
      return;
    }
    await sleep(200);
  }
}

/**
 * Asks `GET …/files?limit=1` every `everyMs` until stopped, reporting each
 * answer's status and latency. The latency counts from when the request was
 * due (the end of the last one plus `everyMs`), not from when the timer
 * fired: a caller waits through a blocked event loop as well as a slow
 * answer, and timing only the request hid a thread held for seconds.
 */
function startProbe(w: TestWorld, projectId: string, everyMs: number, report: (status: number, ms: number) => void): { stop(): Promise<void> } {
  let running = true;
  const loop = (async () => {
    let due = performance.now();
    while (running) {
      const res = await send(w, `/v1/projects/${projectId}/files?limit=1`, { key: w.keys.owner });
      await res.arrayBuffer();
      const done = performance.now();
      report(res.status, done - due);
      due = done + everyMs;
      await sleep(everyMs);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
    },
  };
}

/** One line of figures for a family. */
export function formatHostile(s: HostileStats): string {
  return (
    `${s.format.padEnd(9)} docs ${s.documents} (${(s.bytes / MIB).toFixed(1)} MiB)  accepted ${s.accepted}  refused ${s.refused}  ` +
    `ready ${s.ready}  failed ${s.failed}  stuck ${s.stuck}  5xx ${s.fiveXx}  probes ${s.probes} (p95 ${s.p95ProbeMs.toFixed(0)} ms, max ${s.maxProbeMs.toFixed(0)} ms)  wall ${(s.wallMs / 1000).toFixed(1)} s  RSS ${(s.rssAfter / MIB).toFixed(0)} MiB (heap ${(s.heapAfter / MIB).toFixed(0)} MiB)` +
    Object.entries(s.failures)
      .map(([why, n]) => `\n    failed ${n}× ${why}`)
      .join("")
  );
}
