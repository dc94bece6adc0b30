import { describe, expect, it } from "vitest";
import { checkSchemaName, recordsPath } from "../../../src/records/artifact-schemas.js";
import { RECORD_CELL_MAX, recordCellText, recordEntityName } from "../../../src/records/record-text.js";
import type { ArtifactSchemaField } from "../../../src/vocabulary.js";

const FIELDS: ArtifactSchemaField[] = [
  { name: "score", type: "number", required: false },
  { name: "title", type: "string", required: true },
  { name: "tags", type: "string[]", required: false },
  { name: "open", type: "boolean", required: false },
];

describe("recordCellText", () => {
  it("reads `<schema> record: field: value; …` in schema order, lists joined, absent fields left out", () => {
    expect(recordCellText("Ticket", FIELDS, { title: "Printer\n on  fire", tags: ["hw", "urgent"], open: false, score: 2.5 })).toBe(
      "Ticket record: score: 2.5; title: Printer on fire; tags: hw, urgent; open: false",
    );
    expect(recordCellText("Ticket", FIELDS, { title: "x" })).toBe("Ticket record: title: x");
    expect(recordCellText("Ticket", FIELDS, {})).toBe("Ticket record");
  });

  it("cuts a long record to the cell limit with an ellipsis", () => {
    const text = recordCellText("Ticket", FIELDS, { title: "w".repeat(5000) });
    expect(Array.from(text)).toHaveLength(RECORD_CELL_MAX);
    expect(text.endsWith("…")).toBe(true);
  });
});

describe("recordEntityName", () => {
  it("takes the first non-blank string value in field order", () => {
    expect(recordEntityName("Ticket", FIELDS, { title: "  Printer  on fire ", score: 1 }, "rec_1")).toBe("Printer on fire");
    const two: ArtifactSchemaField[] = [
      { name: "nick", type: "string", required: false },
      { name: "full", type: "string", required: false },
    ];
    expect(recordEntityName("Person", two, { nick: "  ", full: "Ann Lee" }, "rec_1")).toBe("Ann Lee");
  });

  it("falls back to `<schema> <recordId>`, and cuts long names", () => {
    expect(recordEntityName("Ticket", FIELDS, { score: 1 }, "rec_abc")).toBe("Ticket rec_abc");
    expect(Array.from(recordEntityName("Ticket", FIELDS, { title: "n".repeat(300) }, "rec_1"))).toHaveLength(120);
  });
});

describe("checkSchemaName", () => {
  it("trims and keeps a plain name; its records file sits under .pks/records/", () => {
    expect(checkSchemaName("  Sales lead ")).toBe("Sales lead");
    expect(recordsPath("Sales lead")).toBe(".pks/records/Sales lead.jsonl");
  });

  it("refuses a missing, blank, long, slashed or control-character name", () => {
    const message = (raw: unknown) => {
      try {
        checkSchemaName(raw);
      } catch (err) {
        return (err as Error).message;
      }
      return "accepted";
    };
    expect(message(undefined)).toBe("invalid input: name: a schema needs a name");
    expect(message(5)).toBe("invalid input: name: a schema needs a name");
    expect(message("   ")).toBe("invalid input: name: a schema needs a name");
    expect(message("é".repeat(128))).toBe("accepted");
    expect(message("é".repeat(129))).toBe("invalid input: name: longer than 128 characters");
    for (const bad of ["a/b", "a\\b", "a\u0000b", "a\tb"]) expect(message(bad)).toBe("invalid input: name: must not hold control characters or slashes");
  });
});
