import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/**
 * Where the Chromium the browser suite drives lives: `PKS_CHROMIUM` when set
 * (it must then be an executable file), else the first `chromium` or
 * `chromium-browser` on `PATH` (Debian's package installs `chromium`).
 * Undefined when there is none: the suite is then reported as skipped with
 * `CHROMIUM_MISSING` as the reason. `.ci/run` installs the Debian package
 * first, so in CI it always runs.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env.PKS_CHROMIUM?.trim();
  if (named) return isExecutable(named) ? named : undefined;
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    for (const name of ["chromium", "chromium-browser"]) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Why the browser suite did not run, printed once per file and put in its title. */
export const CHROMIUM_MISSING =
  "no Chromium found (set PKS_CHROMIUM to its executable, or install it: apt-get install -y chromium); browser tests skipped";
