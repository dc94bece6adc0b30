/**
 * Start-up time of the `pks` binary, against a bare `node -e ''` measured in
 * the same run: every stdio MCP client spawns pks anew, so what a client
 * waits for is the time from spawn to the answer to its `initialize`.
 *
 * Series (each run a fresh process, one after another, N runs each):
 * - `node -e ''`: the baseline, a Node start with nothing loaded;
 * - `pks --version`: spawn to exit;
 * - `pks mcp --root DIR`: spawn, write `initialize`, `initialized` and
 *   `tools/list` at once, as a client does, and stop the clock when the
 *   `initialize` answer line arrives on stdout (the folder's database
 *   already exists: the usual case for a client); the `tools/list` answer
 *   of the same runs is reported too (the app loaded and opened);
 * - the same on a new database each run (migrations included).
 *
 * The target: the median `initialize` answer within 400 ms.
 *
 *   node --import tsx bench/startup.ts [--runs N] [--bin PATH] [--root DIR] [--no-build]
 *   npm run bench -- startup --runs 20
 *
 * --runs (or PKS_BENCH_RUNS): runs per series, default 10.
 * --bin (or PKS_BENCH_BIN): the pks entry script, default the built
 *   dist/src/main.js (built first with `npm run build` unless --no-build);
 *   a `.ts` entry (src/main.ts) runs from source through tsx.
 * --root (or PKS_BENCH_ROOT): the folder `pks mcp` serves; default a
 *   temporary folder with a few small files. Its database goes to a
 *   temporary folder either way, so the folder is not written to.
 *
 * Writes bench/results/startup.json.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { percentile } from "./lib/ir-metrics.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const TARGET_MS = 400;
const args = process.argv.slice(2);
const flag = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const RUNS = Math.max(1, Number(flag("--runs") ?? process.env.PKS_BENCH_RUNS) || 10);
const BIN = resolve(flag("--bin") ?? process.env.PKS_BENCH_BIN ?? join(REPO, "dist", "src", "main.js"));
const GIVEN_ROOT = flag("--root") ?? process.env.PKS_BENCH_ROOT;
const BUILD = !args.includes("--no-build") && flag("--bin") === undefined && process.env.PKS_BENCH_BIN === undefined;

const NODE_ARGS = BIN.endsWith(".ts") ? ["--import", "tsx", BIN] : [BIN];
const OPENING = `${[
  { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pks-startup-bench", version: "1" } } },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
]
  .map((m) => JSON.stringify(m))
  .join("\n")}\n`;

interface Series {
  name: string;
  ms: number[];
}

/** Milliseconds from spawn to exit; a non-zero exit fails the run. */
function timeExit(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn(process.execPath, argv, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    child.on("error", fail);
    child.on("exit", (code) => (code === 0 ? done(performance.now() - start) : fail(new Error(`${argv.join(" ")} exited ${code}: ${stderr}`))));
  });
}

/**
 * Milliseconds from spawn to the `initialize` answer line on stdout, and to
 * the `tools/list` answer. The requests are written at once, as a client
 * does; once both are answered stdin is closed and the process awaited, so
 * runs do not overlap.
 */
function timeSession(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<{ initialize: number; toolsList: number }> {
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn(process.execPath, argv, { env, stdio: ["pipe", "pipe", "pipe"] });
    const answeredAt = new Map<unknown, number>();
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    child.stdout.on("data", (b: Buffer) => {
      const now = performance.now();
      stdout += b.toString();
      const lines = stdout.split("\n");
      stdout = lines.pop()!;
      for (const line of lines) {
        const message = JSON.parse(line) as { id?: unknown; result?: unknown };
        if (message.id === undefined) continue; // a notification
        if (!message.result) fail(new Error(`request ${String(message.id)} failed: ${line}`));
        answeredAt.set(message.id, now - start);
      }
      if (answeredAt.has(1) && answeredAt.has(2)) child.stdin.end();
    });
    child.on("error", fail);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      const initialize = answeredAt.get(1);
      const toolsList = answeredAt.get(2);
      if (initialize !== undefined && toolsList !== undefined) done({ initialize, toolsList });
      else fail(new Error(`pks mcp ended (${signal ?? code}) before answering initialize and tools/list: ${stderr}`));
    });
    child.stdin.write(OPENING);
  });
}

async function measure(name: string, run: (i: number) => Promise<number>): Promise<Series> {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) ms.push(await run(i));
  return { name, ms };
}

/** Two series from the same runs: the `initialize` and the `tools/list` answers. */
async function measureSessions(name: string, run: (i: number) => Promise<{ initialize: number; toolsList: number }>): Promise<Series[]> {
  const runs: Array<{ initialize: number; toolsList: number }> = [];
  for (let i = 0; i < RUNS; i++) runs.push(await run(i));
  return [
    { name: `${name}: initialize answered`, ms: runs.map((r) => r.initialize) },
    { name: `${name}: tools/list answered`, ms: runs.map((r) => r.toolsList) },
  ];
}

/** A folder like a small project: a README, a source file, a config file. */
function makeRoot(dir: string): string {
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "README.md"), "# Demo\n\nA small project: `greet` says hello.\n");
  writeFileSync(join(dir, "src", "greet.ts"), "/** Says hello. */\nexport function greet(name: string): string {\n  return `hello ${name}`;\n}\n");
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "demo", version: "1.0.0" }, null, 2)}\n`);
  return dir;
}

async function main(): Promise<void> {
  if (BUILD) {
    const built = spawnSync("npm", ["run", "--silent", "build"], { cwd: REPO, stdio: "inherit" });
    if (built.status !== 0) process.stderr.write("build failed; measuring the dist/ already there\n");
  }
  if (!existsSync(BIN)) throw new Error(`no pks entry script at ${BIN} (run npm run build, or pass --bin)`);
  const work = mkdtempSync(join(tmpdir(), "pks-startup-"));
  try {
    const root = GIVEN_ROOT ? resolve(GIVEN_ROOT) : makeRoot(join(work, "project"));
    const env: NodeJS.ProcessEnv = { ...process.env, PKS_LOG: "silent" };
    delete env.PKS_DB_URL;
    delete env.PKS_ROOT;
    const dbUrl = (name: string) => `file:${join(work, name, "pks.db")}`;
    const mcp = (db: string) => [...NODE_ARGS, "mcp", "--root", root, "--db", db];
    mkdirSync(join(work, "db"));
    // The database the warm series opens: made (and the folder read) once beforehand.
    await timeSession(mcp(dbUrl("db")), env);

    const series: Series[] = [];
    series.push(await measure("node -e ''", () => timeExit(["-e", ""], env)));
    series.push(await measure("pks --version", () => timeExit([...NODE_ARGS, "--version"], env)));
    series.push(...(await measureSessions("pks mcp", () => timeSession(mcp(dbUrl("db")), env))));
    series.push(
      ...(await measureSessions("pks mcp, new database", (i) => {
        mkdirSync(join(work, `new-${i}`));
        return timeSession(mcp(dbUrl(`new-${i}`)), env);
      })),
    );

    const base = percentile(series[0]!.ms, 50);
    process.stdout.write(`${RUNS} runs each; ${BIN}\n\n| | median ms | p90 ms | × node -e '' |\n|---|---|---|---|\n`);
    const rows = series.map((s) => ({ name: s.name, median: percentile(s.ms, 50), p90: percentile(s.ms, 90), ratio: percentile(s.ms, 50) / base, ms: s.ms }));
    for (const r of rows) process.stdout.write(`| ${r.name} | ${r.median.toFixed(0)} | ${r.p90.toFixed(0)} | ${r.ratio.toFixed(1)}× |\n`);
    const initialize = rows.find((r) => r.name === "pks mcp: initialize answered")!;
    const holds = initialize.median <= TARGET_MS;
    process.stdout.write(`\ntarget (initialize answered within ${TARGET_MS} ms, median): ${holds ? "holds" : "missed"} (${initialize.median.toFixed(0)} ms; p90 ${initialize.p90.toFixed(0)} ms)\n`);
    mkdirSync(new URL("results/", import.meta.url), { recursive: true });
    writeFileSync(
      new URL("results/startup.json", import.meta.url),
      `${JSON.stringify({ at: new Date().toISOString(), runs: RUNS, bin: BIN, targetMs: TARGET_MS, holds, series: rows }, null, 2)}\n`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
