import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scanForSecrets } from "../../../../src/ingest/secrets/scan-for-secrets.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");

/** Every regular file under `dir`, recursively (symbolic links are not followed). */
function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

describe("real source trees", () => {
  it("the detector's own sources, tests, fixtures and benchmark trip nothing", () => {
    const roots = ["src/ingest/secrets", "test/unit/ingest/secrets", "test/fixtures/secrets", "bench/secret-scan.ts"];
    const files = roots.flatMap((root) => {
      const path = join(repoRoot, root);
      if (!existsSync(path)) return [];
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
    expect(files.length).toBeGreaterThan(20);
    const flagged = files
      .map((file) => ({ file: relative(repoRoot, file), finding: scanForSecrets(relative(repoRoot, file), readFileSync(file)) }))
      .filter(({ finding }) => finding !== null);
    expect(flagged).toEqual([]);
  });

  // The full sweep of every file, with the list of flagged ones, is
  // `node --import tsx bench/secret-scan.ts --tree node_modules`; here files
  // over 2 MiB (generated parsers, tokenizer tables) are left out for speed.
  it("flags at most 0.5% of the files in node_modules (always present: the tests run from it)", () => {
    const files = walk(join(repoRoot, "node_modules")).filter((file) => statSync(file).size <= 2 * 1024 * 1024);
    expect(files.length).toBeGreaterThan(1000);
    const flagged: string[] = [];
    for (const file of files) {
      const path = relative(join(repoRoot, "node_modules"), file);
      const finding = scanForSecrets(path, readFileSync(file));
      if (finding) flagged.push(`${path}:${finding.line} ${finding.rule}`);
    }
    expect(flagged.length / files.length, flagged.join("\n")).toBeLessThanOrEqual(0.005);
  });
});
