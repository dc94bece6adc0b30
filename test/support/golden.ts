/**
 * Golden-file assertions. With `UPDATE_GOLDEN=1` in the environment the
 * golden file is (re)written from the actual value instead of compared.
 *
 * Goldens follow scip-typescript's layout: each suite under `test/golden/`
 * keeps what it reads in `input/` and what it expects in `output/`, named
 * after the input (`input/readme.md` → `output/readme.md.golden.json`).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

/** The golden suites: one folder each under `test/golden/`. */
export type GoldenSuite = "readers" | "code";

const GOLDEN_ROOT = new URL("../golden/", import.meta.url);

/** Absolute path of a suite's input folder, with a trailing slash. */
export function goldenInputDir(suite: GoldenSuite): string {
  return fileURLToPath(new URL(`${suite}/input/`, GOLDEN_ROOT));
}

/** Absolute path of one input file of a suite. */
export function goldenInput(suite: GoldenSuite, name: string): string {
  return `${goldenInputDir(suite)}${name}`;
}

/** Absolute path of one expected output of a suite (`name` includes its `.golden…` suffix). */
export function goldenOutput(suite: GoldenSuite, name: string): string {
  return fileURLToPath(new URL(`${suite}/output/${name}`, GOLDEN_ROOT));
}

function serialise(actual: unknown): string {
  return typeof actual === "string" ? actual : `${JSON.stringify(actual, null, 2)}\n`;
}

/**
 * Compares `actual` with the golden file at `goldenPath` (absolute path or
 * file URL). A string is compared as text; anything else as JSON, after a
 * JSON round trip so `undefined` members match their absence.
 */
export function expectGolden(actual: unknown, goldenPath: string | URL): void {
  const path = typeof goldenPath === "string" ? goldenPath : fileURLToPath(goldenPath);
  const text = serialise(actual);
  if (process.env.UPDATE_GOLDEN === "1") {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return;
  }
  if (!existsSync(path)) {
    throw new Error(`golden file missing: ${path}; run with UPDATE_GOLDEN=1 to create it`);
  }
  const expected = readFileSync(path, "utf8");
  if (typeof actual === "string") {
    expect(text, `golden ${path}`).toBe(expected);
  } else {
    expect(JSON.parse(text), `golden ${path}`).toEqual(JSON.parse(expected));
  }
}
