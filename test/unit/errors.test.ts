import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AppError, ERROR_TABLE, schemaFieldError, schemaMovedError, toAppError } from "../../src/errors.js";

/**
 * Rows of the spec's Errors table: status and exact message. The table is a
 * copy of the spec's "Errors" section kept in the repository (its origin is
 * noted at the top of the fixture), so the test needs nothing outside it.
 */
function specErrors(): Array<{ status: number; message: string }> {
  const fixture = readFileSync(new URL("../fixtures/spec/errors-table.md", import.meta.url), "utf8");
  const section = fixture.slice(fixture.indexOf("## Errors"));
  return [...section.matchAll(/^\| (\d{3}) \| ([^|]+) \|/gm)].map((m) => ({ status: Number(m[1]), message: m[2]!.trim() }));
}

describe("the error table", () => {
  it("holds every row of the spec's Errors table with its status and exact message", () => {
    const rows = specErrors();
    expect(rows.length).toBeGreaterThan(25);
    const table = Object.values(ERROR_TABLE);
    for (const row of rows) {
      const templated = row.message.includes("<") || row.message.includes("...");
      const prefix = row.message.split(/ <|\.\.\./)[0]!.replace(/"$/, "").trim();
      const hit = table.find((e) => e.status === row.status && (templated ? e.message.startsWith(prefix) || prefix.startsWith(e.message) : e.message === row.message));
      expect(hit, `${row.status} ${row.message}`).toBeDefined();
    }
  });

  it("builds the envelope of DECISIONS.md", () => {
    expect(new AppError("unknown_action").toEnvelope()).toEqual({
      error: { status: 404, code: "unknown_action", message: "unknown action" },
    });
    expect(schemaMovedError(3, { fields: [], version: 3 }).toEnvelope()).toEqual({
      error: { status: 409, code: "schema_moved", message: "schema moved to version 3 since the edit began" },
      categorySchema: { fields: [], version: 3 },
    });
    expect(schemaFieldError("Due", "duplicated").message).toBe('schema field "Due": duplicated');
  });

  it("turns unknown failures into a bare 500", () => {
    const e = toAppError(new Error("SQLITE_ERROR near SELECT"));
    expect(e.toEnvelope()).toEqual({ error: { status: 500, code: "internal", message: "internal error" } });
  });
});
