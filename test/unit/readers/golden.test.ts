import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";
import { readerFor } from "../../../src/readers/index.js";
import { expectGolden } from "../../support/golden.js";
import { readerView } from "../../support/reader-view.js";

const dir = fileURLToPath(new URL("../../golden/readers/", import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  md: "text/markdown",
  txt: "text/plain",
  rst: "text/x-rst",
  log: "text/plain",
};

const inputs = readdirSync(dir).filter((name) => !name.endsWith(".golden.json"));

describe("reader golden files", () => {
  it.each(inputs)("%s", async (name) => {
    const ext = name.slice(name.lastIndexOf(".") + 1);
    const input = {
      path: `docs/${name}`,
      contentType: CONTENT_TYPES[ext] ?? "application/octet-stream",
      bytes: new Uint8Array(readFileSync(`${dir}${name}`)),
    };
    const reader = readerFor(input);
    if (reader === undefined) throw new Error(`no reader for ${name}`);
    expectGolden(readerView(reader.name, await reader.read(input)), `${dir}${name}.golden.json`);
  });
});
