import { describe, expect, it } from "vitest";
import { extractCode } from "../../../src/code/extract-code.js";
import { expectGolden } from "../../support/golden.js";
import { annotateSource } from "../../support/annotate.js";
import { FIXTURE_NAMES, goldenPath, readFixture } from "../../support/code-fixtures.js";

describe("extractCode goldens", () => {
  for (const name of FIXTURE_NAMES) {
    it(`annotates ${name}`, async () => {
      const source = readFixture(name);
      const facts = await extractCode(name, source);
      expect(facts).toBeDefined();
      if (!facts) return;
      expect(facts.problems).toBeUndefined();
      expect(facts.declarations.length).toBeGreaterThan(5);
      expectGolden(annotateSource(name, source, facts), goldenPath(name));
    });
  }
});
