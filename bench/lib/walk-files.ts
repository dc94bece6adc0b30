import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Every file under `dir` (skipping `.git` and `node_modules`) that `keep` accepts, sorted. */
export function walkFiles(dir: string, keep: (path: string) => boolean, into: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== ".git" && entry.name !== "node_modules") walkFiles(path, keep, into);
    } else if (entry.isFile() && keep(path)) into.push(path);
  }
  return into.sort();
}
