/**
 * Runs the benchmarks under bench/ one after another (or those named on the
 * command line), each in its own process so their figures do not mix.
 *
 * Usage: npm run bench [-- NAME ...] [-- FLAGS]   e.g. npm run bench -- code-extract
 * Everything from the first argument starting with `-` on is passed to each
 * benchmark run: npm run bench -- ingest --tree ../core --repeat 5
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const all = readdirSync(here)
  .filter((f) => f.endsWith(".ts") && f !== "run.ts")
  .map((f) => f.replace(/\.ts$/, ""))
  .sort();
const args = process.argv.slice(2);
const firstFlag = args.findIndex((a) => a.startsWith("-"));
const wanted = firstFlag < 0 ? args : args.slice(0, firstFlag);
const passed = firstFlag < 0 ? [] : args.slice(firstFlag);
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark: ${unknown.join(", ")} (have: ${all.join(", ")})\n`);
  process.exit(2);
}
let failed = 0;
for (const name of wanted.length > 0 ? wanted : all) {
  process.stdout.write(`\n=== ${name}\n`);
  const r = spawnSync(process.execPath, ["--import", "tsx", join(here, `${name}.ts`), ...passed], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
