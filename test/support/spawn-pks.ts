import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The repo root, where `src/main.ts` lives. */
export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The command that runs the CLI from source (no build needed): the test
 * run's JavaScript copy of the sources where there is one
 * (test/support/thread-build.ts), else the sources through tsx.
 */
export function pksCommand(args: string[]): { command: string; args: string[] } {
  const copy = process.env.PKS_THREAD_BUILD;
  if (copy) return { command: process.execPath, args: [`${copy}/src/main.js`, ...args] };
  return { command: process.execPath, args: ["--import", "tsx", `${REPO_ROOT}src/main.ts`, ...args] };
}

/** Spawns `pks ARGS` from source with a clean environment. */
export function spawnPks(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcessWithoutNullStreams {
  const c = pksCommand(args);
  return spawn(c.command, c.args, { cwd: REPO_ROOT, env: { PATH: process.env.PATH, PKS_LOG: "silent", ...env } });
}

/** A `pks serve` that printed its address block. */
export interface ServedPks {
  /** The REST address as printed. */
  rest: string;
  projectId: string;
  /** The owner key printed on first start (absent on later starts). */
  key: string | undefined;
  /** Sends the signal (if the server still runs) and resolves with its exit code. */
  kill(signal: NodeJS.Signals): Promise<number | null>;
  stderr(): string;
}

/** A starting `pks serve`: `ready` once it printed its address block. */
export interface StartingPks {
  ready: Promise<ServedPks>;
  isReady(): boolean;
  kill(signal: NodeJS.Signals): Promise<number | null>;
  stderr(): string;
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `pks serve` on `root` (port 0, no folder sync: files come over
 * HTTP) and watches its output for the address block. `ready` rejects when
 * the server exits first or does not start within `startLimitMs` (then it
 * is killed).
 */
export function spawnServe(root: string, env: NodeJS.ProcessEnv, startLimitMs = 30_000): StartingPks {
  const child = spawnPks(["serve", "--root", root, "--port", "0", "--no-sync"], env);
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve((exitCode = code))));
  const kill = (signal: NodeJS.Signals) => {
    if (exitCode === undefined) child.kill(signal);
    return exited;
  };
  const isReady = () => /\n\s+key\s+\S/.test(out);
  const stderr = () => err;
  const ready = (async (): Promise<ServedPks> => {
    const started = Date.now();
    while (!isReady()) {
      if (exitCode !== undefined) throw new Error(`pks serve exited with ${exitCode}: ${err.slice(-2000)}`);
      if (Date.now() - started > startLimitMs) {
        await kill("SIGKILL");
        throw new Error(`pks serve did not start: ${out} ${err.slice(-2000)}`);
      }
      await pause(20);
    }
    return {
      rest: /REST\s+(\S+)/.exec(out)![1]!,
      projectId: /project\s+(prj_\S+)/.exec(out)![1]!,
      key: /key\s+(pks_\S+)/.exec(out)?.[1],
      kill,
      stderr,
    };
  })();
  ready.catch(() => undefined);
  return { ready, isReady, kill, stderr };
}
