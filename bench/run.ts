/**
 * Runs the benchmarks under bench/ one after another (or those named on the
 * command line), each in its own process so their figures do not mix.
 *
 * Usage: npm run bench [-- NAME ...]   e.g. npm run bench -- code-extract
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
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark: ${unknown.join(", ")} (have: ${all.join(", ")})\n`);
  process.exit(2);
}
let failed = 0;
for (const name of wanted.length > 0 ? wanted : all) {
  process.stdout.write(`\n=== ${name}\n`);
  const r = spawnSync(process.execPath, ["--import", "tsx", join(here, `${name}.ts`)], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
