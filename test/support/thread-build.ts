/**
 * A JavaScript copy of `src/` and `tools/` for one test run (vitest's
 * global setup), made with esbuild — the transform tsx itself applies —
 * so the run's threads, reader processes and spawned `pks` servers start
 * from plain modules. From the TypeScript sources each of them registers
 * tsx's loader and sends every module through it: 3–6 s to start a reader
 * thread on a loaded 2-core host against 0.4–1.5 s from JavaScript, and a
 * test run starts hundreds of them.
 *
 * The copy lives under the checkout's `node_modules/.cache/`, so package
 * resolution and `packageRoot()` find the same files as from `src/`; files
 * that are not TypeScript (queries, migrations) are copied beside it. Each
 * run has a folder of its own, removed when the run ends. `PKS_THREAD_BUILD`
 * names it to the test processes (src/config.ts `threadBuild`;
 * test/support/test-app.ts, spawn-pks.ts).
 */
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { build } from "esbuild";
import { REPO_ROOT } from "./spawn-pks.js";
import { walkFiles } from "./walk-files.js";

const FOLDERS = ["src", "tools"];

export default async function setup(): Promise<() => void> {
  const out = join(REPO_ROOT, "node_modules", ".cache", "pks-thread-build", String(process.pid));
  rmSync(out, { recursive: true, force: true });
  const files = FOLDERS.flatMap((f) => walkFiles(join(REPO_ROOT, f)));
  const sources = files.filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts"));
  await build({
    entryPoints: sources,
    outdir: out,
    outbase: REPO_ROOT,
    format: "esm",
    platform: "node",
    target: "node20",
    tsconfig: join(REPO_ROOT, "tsconfig.json"),
    logLevel: "error",
  });
  for (const f of files.filter((f) => !/\.tsx?$/.test(f))) {
    const to = join(out, relative(REPO_ROOT, f));
    mkdirSync(join(to, ".."), { recursive: true });
    cpSync(f, to);
  }
  process.env.PKS_THREAD_BUILD = out;
  return () => rmSync(out, { recursive: true, force: true });
}
