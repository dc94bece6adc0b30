import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "vitest";
import { readerFor } from "../../../src/readers/index.js";
import { expectGolden, goldenInput, goldenInputDir, goldenOutput } from "../../support/golden.js";
import { readerView } from "../../support/reader-view.js";

const CONTENT_TYPES: Record<string, string> = {
  md: "text/markdown",
  txt: "text/plain",
  rst: "text/x-rst",
  log: "text/plain",
};

/** Every input in test/golden/readers/input/, each with its output in test/golden/readers/output/. */
const inputs = readdirSync(goldenInputDir("readers")).sort();

describe("reader golden files", () => {
  it.each(inputs)("%s", async (name) => {
    const ext = name.slice(name.lastIndexOf(".") + 1);
    const input = {
      path: `docs/${name}`,
      contentType: CONTENT_TYPES[ext] ?? "application/octet-stream",
      bytes: new Uint8Array(readFileSync(goldenInput("readers", name))),
    };
    const reader = readerFor(input);
    if (reader === undefined) throw new Error(`no reader for ${name}`);
    expectGolden(readerView(reader.name, await reader.read(input)), goldenOutput("readers", `${name}.golden.json`));
  });
});
