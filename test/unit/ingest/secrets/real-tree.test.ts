import { existsSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { scanForSecrets } from "../../../../src/ingest/secrets/scan-for-secrets.js";
import { REPO_ROOT } from "../../../support/spawn-pks.js";
import { walkFiles } from "../../../support/walk-files.js";

// The sweep of node_modules (at most 0.5% of its files flagged) is in the
// soak run: test/soak/secrets-node-modules.test.ts.
describe("real source trees", () => {
  it("the detector's own sources, tests, fixtures and benchmark trip nothing", () => {
    const roots = ["src/ingest/secrets", "test/unit/ingest/secrets", "test/fixtures/secrets", "bench/secret-scan.ts"];
    const files = roots.flatMap((root) => {
      const path = join(REPO_ROOT, root);
      if (!existsSync(path)) return [];
      return statSync(path).isDirectory() ? walkFiles(path) : [path];
    });
    expect(files.length).toBeGreaterThan(20);
    const flagged = files
      .map((file) => ({ file: relative(REPO_ROOT, file), finding: scanForSecrets(relative(REPO_ROOT, file), readFileSync(file)) }))
      .filter(({ finding }) => finding !== null);
    expect(flagged).toEqual([]);
  });
});
