import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The repo root, where `src/main.ts` lives. */
export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The command that runs the CLI from source (no build needed). */
export function pksCommand(args: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: ["--import", "tsx", `${REPO_ROOT}src/main.ts`, ...args] };
}

/** Spawns `pks ARGS` from source with a clean environment. */
export function spawnPks(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcessWithoutNullStreams {
  const c = pksCommand(args);
  return spawn(c.command, c.args, { cwd: REPO_ROOT, env: { PATH: process.env.PATH, PKS_LOG: "silent", ...env } });
}
