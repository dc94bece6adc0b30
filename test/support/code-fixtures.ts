/**
 * The per-language code fixtures and where their goldens live.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** One fixture file per supported language. */
export const FIXTURE_NAMES = [
  "sample.ts",
  "sample.tsx",
  "sample.js",
  "sample.py",
  "sample.go",
  "sample.rs",
  "sample.java",
  "sample.c",
  "sample.cpp",
  "sample.cs",
  "sample.rb",
  "sample.php",
  "sample.sh",
] as const;

const FIXTURE_DIR = new URL("../fixtures/code/", import.meta.url);
const GOLDEN_DIR = new URL("../golden/code/", import.meta.url);

/** Source text of a fixture. */
export function readFixture(name: string): string {
  return readFileSync(new URL(name, FIXTURE_DIR), "utf8");
}

/** Absolute path of a fixture's golden (the source annotated with its facts). */
export function goldenPath(name: string): string {
  return fileURLToPath(new URL(`${name}.golden`, GOLDEN_DIR));
}
