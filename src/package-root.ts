import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/**
 * The folder holding pks's own package.json, found from this module's place,
 * so data files (migrations, prompts) resolve the same from `src/` and `dist/`.
 */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json")) || !existsSync(join(dir, "prompts"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error("pks package root not found");
    dir = up;
  }
  cached = dir;
  return dir;
}
