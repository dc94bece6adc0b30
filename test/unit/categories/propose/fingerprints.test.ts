/**
 * A fingerprint names one proposal of a project: however many untyped shapes
 * a reading finds, no two share one (a repository's JSON fixtures gave three
 * config shapes with the same two most stated keys).
 */
import { describe, expect, it } from "vitest";
import type { Instance } from "../../../../src/categories/instance.js";
import { proposeShapes } from "../../../../src/categories/propose/propose-shapes.js";

/** A config object stating `keys`, each value a word. */
function object(fileId: string, i: number, keys: string[]): Instance {
  return {
    source: "config",
    typeHint: undefined,
    title: `item ${i}`,
    fileId,
    factionIds: [`fac_${fileId}_${i}`],
    values: keys.map((key) => ({ key, value: `${key} value ${i}`, cellIds: [`cel_${fileId}_${i}_${key}`] })),
  };
}

describe("shape fingerprints", () => {
  it("three untyped shapes whose two most stated keys agree get three fingerprints, the same on every reading", () => {
    const shapes = ["left", "middle", "right"].flatMap((side, g) =>
      [0, 1, 2].map((i) => object(`fil_${g}`, i, ["alpha", "beta", `${side} one`, `${side} two`, `${side} three`])),
    );
    const first = proposeShapes(shapes).map((p) => p.fingerprint);
    expect(first).toHaveLength(3);
    expect(new Set(first).size).toBe(3);
    expect(proposeShapes([...shapes]).map((p) => p.fingerprint)).toEqual(first);
  });
});
