import { describe, expect, it } from "vitest";
import { createCursorCodec } from "../../../src/core/cursor.js";
import { limitParam } from "../../../src/core/paging.js";

const pageLimit = (raw: string | undefined) => limitParam.parse(raw);

describe("cursors", () => {
  const codec = createCursorCodec("secret-1");

  it("round-trips a position within its scope", () => {
    const c = codec.encode("cells|prj_1|fileId=a", { after: ["2026-01-01", "cel_9"] });
    expect(codec.decode("cells|prj_1|fileId=a", c)).toEqual({ after: ["2026-01-01", "cel_9"] });
  });

  it("refuses cursors from another read, another secret, tampered or random", () => {
    const c = codec.encode("cells|prj_1", { n: 50 });
    const bad = [
      () => codec.decode("cells|prj_2", c),
      () => createCursorCodec("secret-2").decode("cells|prj_1", c),
      () => codec.decode("cells|prj_1", `${Buffer.from('{"n":0}').toString("base64url")}.${c.split(".")[1]}`),
      () => codec.decode("cells|prj_1", "garbage"),
      () => codec.decode("cells|prj_1", `${c}.x`),
      () => codec.decode("cells|prj_1", "x".repeat(5000)),
    ];
    for (const f of bad) expect(f).toThrow("invalid cursor");
  });
});

describe("page limit", () => {
  it("defaults to 50, clamps to 1..200, refuses non-integers", () => {
    expect(pageLimit(undefined)).toBe(50);
    expect(pageLimit("10")).toBe(10);
    expect(pageLimit("1000000000")).toBe(200);
    expect(pageLimit("0")).toBe(1);
    expect(pageLimit("-5")).toBe(1);
    expect(() => pageLimit("ten")).toThrow("limit must be an integer");
    expect(() => pageLimit("1.5")).toThrow("limit must be an integer");
  });
});
