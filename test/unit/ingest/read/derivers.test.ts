import { describe, expect, it } from "vitest";
import { derivers } from "../../../../src/ingest/read/derivers/index.js";

describe("derivers", () => {
  it("run the code index first, then the links that need its symbols", () => {
    expect(derivers.map((d) => d.name)).toEqual(["code-facts", "document-entities", "symbol-mentions"]);
  });
});
