import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Every regular file under `dir`, recursively (symbolic links are not followed). */
export function walkFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walkFiles(path, out);
    else if (entry.isFile()) out.push(path);
  }
  return out;
}
