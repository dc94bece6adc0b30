/**
 * The secret scan over a large real tree: the project's own node_modules
 * (always present, the tests run from it). The full sweep of every file,
 * with the list of flagged ones, is
 * `node --import tsx bench/secret-scan.ts --tree node_modules`; here files
 * over 2 MiB (generated parsers, tokenizer tables) are left out for speed.
 * Its time grows with the install and the host's load (it timed out at
 * 30 s beside a benchmark), and it checks what is flagged, not how fast:
 * so its bound is generous.
 */
import { readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { scanForSecrets } from "../../src/ingest/secrets/scan-for-secrets.js";
import { REPO_ROOT } from "../support/spawn-pks.js";
import { walkFiles } from "../support/walk-files.js";

describe("real source trees", () => {
  it("flags at most 0.5% of the files in node_modules", () => {
    const modules = join(REPO_ROOT, "node_modules");
    const files = walkFiles(modules).filter((file) => statSync(file).size <= 2 * 1024 * 1024);
    expect(files.length).toBeGreaterThan(1000);
    const flagged: string[] = [];
    for (const file of files) {
      const path = relative(modules, file);
      const finding = scanForSecrets(path, readFileSync(file));
      if (finding) flagged.push(`${path}:${finding.line} ${finding.rule}`);
    }
    expect(flagged.length / files.length, flagged.join("\n")).toBeLessThanOrEqual(0.005);
  }, 300_000);
});
