/**
 * One editor's large batch must not stall every other caller: a cheap read
 * (`GET …/entities?limit=1`) every 50 ms while 25 CSVs of STALL_CSV_ROWS
 * rows (default 50,000) and 3 DOCX of STALL_DOCX_PARAGRAPHS paragraphs
 * (default 20,000, about 2 MB of text each) go in by three ingest calls (more at
 * the full size: each stays under the request limit) and
 * are read. Prints the reads' p50, p95 and max from the first call until
 * every file is read.
 *
 * The service aims at p95 50 ms and max 250 ms on a quiet host. The bound
 * asserted by default is the one that held on the shared 2-core host this
 * was written on, under a load average of about 16 from other work: p95
 * 293 ms and max 788 ms were measured there with STALL_CSV_ROWS=500 and
 * STALL_DOCX_PARAGRAPHS=300 (the CI size), so STALL_P95_MS defaults to
 * 1,000 and STALL_MAX_MS to 3,000; a quiet host can set them to 50 and 250.
 * Reading limits are raised: this measures the reads, not the readers.
 *
 * Measured as users meet it: `pks serve` in a process of its own, over
 * HTTP. The editor's calls go from a worker thread, as from another
 * client: a 22 MB body built, sent and its answer read on the thread that
 * times the reads would be the client's pause, not the server's.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnServe } from "../support/spawn-pks.js";
import type { ServedPks } from "../support/spawn-pks.js";
import { buildDocx } from "../support/docx-fixture.js";
import { fileEntry } from "../support/ingest-helpers.js";
import { INGEST_BODY_LIMIT } from "../../src/core/endpoint.js";

const CSV_ROWS = Number(process.env.STALL_CSV_ROWS ?? 50_000);
const DOCX_PARAGRAPHS = Number(process.env.STALL_DOCX_PARAGRAPHS ?? 20_000);
const P95_BOUND_MS = Number(process.env.STALL_P95_MS ?? 1000);
const MAX_BOUND_MS = Number(process.env.STALL_MAX_MS ?? 3000);
const TIMEOUT_MS = Number(process.env.STALL_TIMEOUT_MS ?? 600_000);

const CITIES = ["Berlin", "Lagos", "Lima", "Osaka", "Perth", "Quito", "Riga", "Turin"];

function csv(n: number): Uint8Array {
  const lines = ["id,name,city,amount,day"];
  for (let r = 0; r < CSV_ROWS; r++) lines.push(`${r},Item ${n}-${r},${CITIES[(r + n) % CITIES.length]},${((r * 37) % 10_000) / 100},2026-0${1 + (r % 9)}-1${r % 10}`);
  return Buffer.from(`${lines.join("\n")}\n`);
}

function docx(n: number): Uint8Array {
  return buildDocx(
    Array.from({ length: DOCX_PARAGRAPHS }, (_, i) =>
      i % 200 === 0
        ? { kind: "p" as const, text: `Chapter ${i / 200} of volume ${n}`, style: "Heading1" }
        : { kind: "p" as const, text: `Paragraph ${i} of volume ${n}: the envoy Marta Quell met the guild of ${CITIES[i % CITIES.length]} about shipment ${i * 3}.` },
    ),
  );
}

/**
 * One group's files in calls the ingest endpoint takes: three calls at the
 * CI size; at the full size (eight or nine CSVs of 2.6 MB, base64 in JSON)
 * a group is past the request limit and goes in two or three calls.
 */
function withinRequestLimit(files: Array<{ content: string }>): Array<Array<{ content: string }>> {
  const calls: Array<Array<{ content: string }>> = [[]];
  let bytes = 0;
  for (const f of files) {
    const size = f.content.length + 1024;
    if (bytes + size > INGEST_BODY_LIMIT * 0.9 && calls[calls.length - 1]!.length > 0) {
      calls.push([]);
      bytes = 0;
    }
    calls[calls.length - 1]!.push(f);
    bytes += size;
  }
  return calls;
}

/** Each ingest call's body, serialised before the reads start. */
function callBodies(): Buffer[] {
  const groups = [0, 1, 2].map((c) => {
    const files = [];
    for (let n = c; n < 25; n += 3) files.push(fileEntry(`data/table-${n}.csv`, csv(n)));
    files.push(fileEntry(`docs/volume-${c}.docx`, docx(c)));
    return files;
  });
  return groups.flatMap(withinRequestLimit).map((files) => Buffer.from(JSON.stringify({ files })));
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/**
 * The editor: sends each body in turn from a worker thread once told to go,
 * posting each answer's status, then `done`.
 */
const SENDER = `
const { parentPort, workerData } = require("node:worker_threads");
parentPort.once("message", async () => {
  try {
    for (const body of workerData.bodies) {
      const res = await fetch(workerData.url, { method: "POST", headers: { authorization: "Bearer " + workerData.key, "content-type": "application/json" }, body });
      await res.arrayBuffer();
      parentPort.postMessage({ status: res.status });
    }
    parentPort.postMessage({ done: true });
  } catch (err) {
    parentPort.postMessage({ error: String(err) });
  }
});
parentPort.postMessage({ ready: true });
`;

/** Starts the editor's thread with the bodies; resolves with it once it holds them. */
async function startEditor(url: string, key: string, bodies: Buffer[]): Promise<Worker> {
  const worker = new Worker(SENDER, { eval: true, workerData: { url, key, bodies } });
  await new Promise<void>((resolve, reject) => {
    worker.once("message", () => resolve());
    worker.once("error", reject);
  });
  return worker;
}

/** Tells the editor to go; resolves with the calls' statuses once every call answered. */
function sendAll(worker: Worker): Promise<number[]> {
  const statuses: number[] = [];
  return new Promise((resolve, reject) => {
    worker.on("message", (m: { status?: number; done?: boolean; error?: string }) => {
      if (m.error) reject(new Error(m.error));
      else if (m.status !== undefined) statuses.push(m.status);
      else if (m.done) resolve(statuses);
    });
    worker.once("error", reject);
    worker.postMessage("go");
  });
}

/** The five slowest reads, each with when it started (seconds from the first call). */
function slowest(latencies: number[], startedAt: number[], origin: number): string {
  const order = latencies.map((_, i) => i).sort((a, b) => latencies[b]! - latencies[a]!);
  return order
    .slice(0, 5)
    .map((i) => `${latencies[i]!.toFixed(0)} at ${((startedAt[i]! - origin) / 1000).toFixed(1)}`)
    .join(", ");
}

interface IngestStatus {
  state: string;
  files: { queued: number; reading: number; ready: number; failed: number };
}

/** Polls the ingest status every 500 ms until no file is queued or reading and the lease is idle. */
async function settled(server: ServedPks, key: string, files: number): Promise<IngestStatus> {
  for (;;) {
    const res = await fetch(`${server.rest}/projects/${server.projectId}/ingest`, { headers: { authorization: `Bearer ${key}` } });
    const status = (await res.json()) as IngestStatus;
    if (status.files.ready + status.files.failed >= files && status.state === "idle") return status;
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe(`a cheap read while 25 CSVs of ${CSV_ROWS} rows and 3 DOCX of ${DOCX_PARAGRAPHS} paragraphs are read`, () => {
  let root: string;
  let server: ServedPks | undefined;
  let editor: Worker | undefined;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "pks-stall-"));
    // The reading limit is raised: on a loaded host a large CSV can take past the product's 60 s, and this measures reads, not readers.
    server = await spawnServe(root, { PKS_RATE_LIMIT: "1000000", PKS_READ_TIMEOUT_MS: "900000" }, 60_000).ready;
  }, 90_000);
  afterAll(async () => {
    await editor?.terminate();
    await server?.kill("SIGKILL");
    rmSync(root, { recursive: true, force: true });
  });

  it("answers every read within the bound", async () => {
    const s = server!;
    const key = s.key!;
    const bodies = callBodies();
    editor = await startEditor(`${s.rest}/projects/${s.projectId}/ingest`, key, bodies);
    const latencies: number[] = [];
    const startedAt: number[] = [];
    const statuses: number[] = [];
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const start = performance.now();
        const res = await fetch(`${s.rest}/projects/${s.projectId}/entities?limit=1`, { headers: { authorization: `Bearer ${key}` } });
        await res.arrayBuffer();
        latencies.push(performance.now() - start);
        startedAt.push(start);
        statuses.push(res.status);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const started = performance.now();
    const answered = await sendAll(editor);
    const accepted = performance.now() - started;
    const status = await settled(s, key, 28);
    const total = performance.now() - started;
    reading = false;
    await reader;
    const sorted = [...latencies].sort((a, b) => a - b);
    const [p50, p95, max] = [quantile(sorted, 0.5), quantile(sorted, 0.95), sorted[sorted.length - 1]!];
    console.log(
      `read stall: ${latencies.length} reads; p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${max.toFixed(1)} ms; ` +
        `calls accepted in ${(accepted / 1000).toFixed(1)} s, all read in ${(total / 1000).toFixed(1)} s; files ${JSON.stringify(status.files)}; ` +
        `slowest (ms, at s from the first call): ${slowest(latencies, startedAt, started)}`,
    );
    expect(answered).toEqual(bodies.map(() => 200));
    expect(statuses.filter((code) => code !== 200)).toEqual([]);
    expect(status.files).toEqual({ queued: 0, reading: 0, ready: 28, failed: 0 });
    expect(p95).toBeLessThanOrEqual(P95_BOUND_MS);
    expect(max).toBeLessThanOrEqual(MAX_BOUND_MS);
  }, TIMEOUT_MS);
});
