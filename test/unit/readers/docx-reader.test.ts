import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_DOCX_XML_BYTES } from "../../../src/readers/docx/docx-package.js";
import { docxReader } from "../../../src/readers/docx/docx-reader.js";
import type { ReadOutput } from "../../../src/readers/reader.js";
import { expectGolden, goldenOutput } from "../../support/golden.js";
import type { DocxBlock } from "../../support/docx-fixture.js";
import { buildDocx } from "../../support/docx-fixture.js";
import { LOCATION_KEYS, expectLocations } from "../../support/location-invariants.js";
import { readerView } from "../../support/reader-view.js";
import { docxOfXml } from "../../support/hostile-archives.js";
import { buildZip } from "../../support/zip-fixture.js";

const GOLDEN = goldenOutput("readers", "generated-memo.docx.golden.json");

const MEMO: DocxBlock[] = [
  { kind: "p", text: "SPDX-License-Identifier: CC-BY-4.0" },
  { kind: "p", text: "Release Memo", style: "Title" },
  { kind: "p", text: "Summary", style: "Heading1" },
  { kind: "p", text: "Orbit 2.4 ships on 3 May. It adds tiered storage & faster restarts." },
  { kind: "bullets", items: ["Tiered storage", "Warm restarts"] },
  { kind: "p", text: "Numbers", style: "Heading2" },
  { kind: "table", rows: [["Region", "Requests", "Growth"], ["Europe", "1.9 bn", "12%"], ["Asia", "1.1 bn", ""]] },
  { kind: "p", text: "Risks", style: "Heading1" },
  { kind: "p", text: "None known <yet>." },
];

async function read(bytes: Uint8Array): Promise<ReadOutput> {
  const out = await docxReader.read({ path: "docs/memo.docx", contentType: "", bytes });
  expectLocations(out, LOCATION_KEYS.none);
  return out;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("docxReader.accepts", () => {
  it.each([
    ["docs/memo.docx", "", true],
    ["memo", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", true],
    ["memo.doc", "application/msword", false],
  ])("%s (%s) → %s", (path, contentType, expected) => {
    expect(docxReader.accepts({ path, contentType })).toBe(expected);
  });
});

describe("docxReader.read", () => {
  it("matches the golden output for a generated memo", async () => {
    expectGolden(readerView("docx", await read(buildDocx(MEMO))), GOLDEN);
  });

  it("gives factions no location keys: a .docx has neither lines nor pages", async () => {
    const out = await read(buildDocx(MEMO));
    expect(out.factions.length).toBeGreaterThan(0);
    for (const faction of out.factions) expect(faction.location).toEqual({});
  });

  it("reads headings from paragraph styles and threads sections under them", async () => {
    const out = await read(buildDocx(MEMO));
    const at = (text: string) => out.cells.findIndex((c) => c.text === text);
    expect(out.factions.filter((f) => f.factionType === "heading").map((f) => f.text)).toEqual(["Release Memo", "Summary", "Numbers", "Risks"]);
    expect(out.cells[at("Orbit 2.4 ships on 3 May.")]?.parent).toBe(at("Summary"));
    expect(out.cells[at("Warm restarts")]?.parent).toBe(at("Summary"));
    expect(out.cells[at("Numbers")]?.parent).toBe(at("Summary"));
    expect(out.cells[at("Region: Asia; Requests: 1.1 bn")]?.parent).toBe(at("Numbers"));
    expect(out.cells[at("None known <yet>.")]?.parent).toBe(at("Risks"));
  });

  it("reads lists as items and tables as rows under their first row's names", async () => {
    const out = await read(buildDocx(MEMO));
    const list = out.factions.findIndex((f) => f.factionType === "list");
    const table = out.factions.findIndex((f) => f.factionType === "table");
    expect(out.cells.filter((c) => c.faction === list).map((c) => c.text)).toEqual(["Tiered storage", "Warm restarts"]);
    expect(out.cells.filter((c) => c.faction === table).map((c) => c.text)).toEqual([
      "Region: Europe; Requests: 1.9 bn; Growth: 12%",
      "Region: Asia; Requests: 1.1 bn",
    ]);
    expect(out.factions[table]?.text).toBe("Region | Requests | Growth\nEurope | 1.9 bn | 12%\nAsia | 1.1 bn |");
  });

  it("keeps a licence line as a faction without cells", async () => {
    const out = await read(buildDocx(MEMO));
    expect(out.factions[0]?.text).toBe("SPDX-License-Identifier: CC-BY-4.0");
    expect(out.cells.some((c) => c.faction === 0)).toBe(false);
  });

  it("writes nothing to stdout or the console", async () => {
    const write = vi.spyOn(process.stdout, "write");
    const log = vi.spyOn(console, "log");
    const warn = vi.spyOn(console, "warn");
    await read(buildDocx([...MEMO, { kind: "p", text: "Unknown style", style: "NoSuchStyle" }]));
    expect(write).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });

  it("refuses files that are not Word packages, or that unpack too large", async () => {
    await expect(read(new TextEncoder().encode("plain text"))).rejects.toThrow(/not a valid DOCX file/);
    await expect(read(buildZip([{ name: "readme.txt", data: "hi" }]))).rejects.toThrow(/not a valid DOCX file/);
    const lying = docxOfXml(MAX_DOCX_XML_BYTES + 1024 * 1024, { declaredSize: 1024 });
    await expect(read(lying)).rejects.toThrow(/^document inflates past 16 MiB$/);
  });

  it("goes by what entries inflate to, not by the sizes they declare", async () => {
    const declaresHuge = buildZip([{ name: "word/document.xml", data: "<x/>" }], { sizeOf: () => 0xfffffff0 });
    await expect(read(declaresHuge)).rejects.toThrow(/not a valid DOCX file/);
    const honest = docxOfXml(64 * 1024, { declaredSize: 1 });
    expect((await read(honest)).factions.length).toBeGreaterThan(100);
  });
});
