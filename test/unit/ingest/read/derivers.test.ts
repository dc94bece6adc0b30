import { describe, expect, it } from "vitest";
import { derivers } from "../../../../src/ingest/read/derivers/index.js";

describe("derivers", () => {
  it("run the code index first, then the links that need its symbols, the search rows after all the reading wrote, typing once drained", () => {
    expect(derivers.map((d) => d.name)).toEqual(["code-facts", "document-entities", "symbol-mentions", "search-rows", "typing"]);
    expect(derivers.filter((d) => d.inReader).map((d) => d.name)).toEqual(["document-entities"]);
    expect(derivers.filter((d) => d.afterDrain).map((d) => d.name)).toEqual(["typing"]);
  });
});
