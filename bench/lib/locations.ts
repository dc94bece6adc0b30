/**
 * Where a benchmark finds its data and its fetched mirrors: a flag, else an
 * environment variable, never a path of one machine. Nothing here has a
 * default: a benchmark that needs a location it was not given stops with a
 * message naming both ways to give it.
 *
 *   --data DIR     or PKS_BENCH_DATA   a folder holding `scifact/` and
 *                                      `swebench-lite/` (public benchmark data)
 *   --mirrors DIR  or PKS_MIRRORS      a folder of fetched repositories, one
 *                                      `owner+name/` each
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

function flag(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

function located(args: readonly string[], name: string, envName: string, what: string): string {
  const dir = flag(args, name) ?? process.env[envName];
  if (!dir) throw new Error(`${what}: give ${name} DIR or set ${envName}`);
  if (!existsSync(dir)) throw new Error(`${what}: ${dir} does not exist (from ${flag(args, name) ? name : envName})`);
  return dir;
}

/** The benchmark data folder, or a file or folder inside it. */
export function benchData(sub = "", args: readonly string[] = process.argv.slice(2)): string {
  return join(located(args, "--data", "PKS_BENCH_DATA", "benchmark data"), sub);
}

/** The folder of fetched mirrors. */
export function mirrorsDir(args: readonly string[] = process.argv.slice(2)): string {
  return located(args, "--mirrors", "PKS_MIRRORS", "fetched mirrors");
}
