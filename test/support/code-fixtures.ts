/**
 * The per-language code fixtures (`test/golden/code/input/`) and where their
 * goldens live (`test/golden/code/output/<name>.golden`).
 */
import { readFileSync } from "node:fs";
import { goldenInput, goldenOutput } from "./golden.js";

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
  "sample.kt",
  "sample.scala",
  "sample.swift",
  "sample.hs",
  "sample.ex",
  "sample.lua",
  "sample.zig",
] as const;

/** Source text of a fixture. */
export function readFixture(name: string): string {
  return readFileSync(goldenInput("code", name), "utf8");
}

/** Absolute path of a fixture's golden (the source annotated with its facts). */
export function goldenPath(name: string): string {
  return goldenOutput("code", `${name}.golden`);
}
