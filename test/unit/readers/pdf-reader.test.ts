import { afterEach, describe, expect, it, vi } from "vitest";
import { PDF_LIMITS, pdfReader, readPdf } from "../../../src/readers/pdf/pdf-reader.js";
import type { ReadOutput } from "../../../src/readers/reader.js";
import { expectGolden, goldenOutput } from "../../support/golden.js";
import { LOCATION_KEYS, expectLocations } from "../../support/location-invariants.js";
import type { PdfLine } from "../../support/pdf-fixture.js";
import { buildPdf } from "../../support/pdf-fixture.js";
import { readerView } from "../../support/reader-view.js";

const GOLDEN = goldenOutput("readers", "generated-report.pdf.golden.json");

const REPORT: PdfLine[][] = [
  [
    { text: "Orbit Cache: Annual Report", size: 18 },
    { text: "Orbit served 4.2 billion requests in 2024. Dr. Byron led the", gap: true },
    { text: "work on eviction, which cut memory use by a third. The exam-" },
    { text: "ple deployments ran on three continents." },
    { text: "Copyright (c) 2024 Orbit Authors. All rights reserved.", size: 8, gap: true },
  ],
  [],
  [
    { text: "Outlook", size: 14 },
    { text: "Next year brings tiered storage (see section 4).", gap: true },
  ],
];

function input(bytes: Uint8Array) {
  return { path: "docs/report.pdf", contentType: "application/pdf", bytes };
}

async function read(bytes: Uint8Array): Promise<ReadOutput> {
  const out = await pdfReader.read(input(bytes));
  expectLocations(out, LOCATION_KEYS.pages);
  return out;
}

/** A copy of `pdf` with an encryption dictionary whose empty user password does not match. */
function encrypted(pdf: Uint8Array): Uint8Array {
  let text = Buffer.from(pdf).toString("latin1");
  const previous = /startxref\n(\d+)/.exec(text)?.[1] ?? "0";
  const at = Buffer.byteLength(text, "latin1");
  const key = `<${"11".repeat(32)}>`;
  const object = `99 0 obj\n<< /Filter /Standard /V 1 /R 2 /O ${key} /U ${key} /P -4 >>\nendobj\n`;
  const xref = at + Buffer.byteLength(object, "latin1");
  const id = "<0123456789abcdef0123456789abcdef>";
  text += `${object}xref\n0 1\n0000000000 65535 f \n99 1\n${String(at).padStart(10, "0")} 00000 n \n`;
  text += `trailer\n<< /Size 100 /Root 1 0 R /Encrypt 99 0 R /ID [${id} ${id}] /Prev ${previous} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(text, "latin1"));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("pdfReader.accepts", () => {
  it.each([
    ["docs/report.pdf", "", true],
    ["docs/REPORT.PDF", "application/octet-stream", true],
    ["scan", "application/pdf", true],
    ["report.docx", "", false],
  ])("%s (%s) → %s", (path, contentType, expected) => {
    expect(pdfReader.accepts({ path, contentType })).toBe(expected);
  });
});

describe("pdfReader.read", () => {
  it("matches the golden output for a generated three-page report", async () => {
    expectGolden(readerView("pdf", await read(buildPdf(REPORT))), GOLDEN);
  });

  it("makes one page faction per page, located by page number only", async () => {
    const out = await read(buildPdf(REPORT));
    expect(out.factions.map((f) => [f.factionType, f.inferredType, f.location])).toEqual([
      ["page", "application/pdf", { pdfPageStart: 1, pdfPageEnd: 1 }],
      ["page", "application/pdf", { pdfPageStart: 2, pdfPageEnd: 2 }],
      ["page", "application/pdf", { pdfPageStart: 3, pdfPageEnd: 3 }],
    ]);
  });

  it("cuts sentences per paragraph, rejoins hyphenated words, and skips notices and blank pages", async () => {
    const out = await read(buildPdf(REPORT));
    expect(out.cells.map((c) => [c.faction, c.text])).toEqual([
      [0, "Orbit Cache: Annual Report"],
      [0, "Orbit served 4.2 billion requests in 2024."],
      [0, "Dr. Byron led the work on eviction, which cut memory use by a third."],
      [0, "The example deployments ran on three continents."],
      [2, "Outlook"],
      [2, "Next year brings tiered storage (see section 4)."],
    ]);
    expect(out.factions[1]?.text).toBe("");
    expect(out.factions[0]?.text).toContain("Copyright (c) 2024 Orbit Authors.");
  });

  it("cuts no cells from running headers, footers and page numbers", async () => {
    const pages: PdfLine[][] = Array.from({ length: 4 }, (_, i) => [
      { text: "Orbit Report - Confidential", size: 8 },
      { text: `Body of page ${i + 1} is here.`, gap: true },
      { text: `Page ${i + 1} of 4`, size: 8, gap: true },
    ]);
    pages.push([{ text: "Last page text." }, { text: "5", size: 8, gap: true }]);
    const out = await read(buildPdf(pages));
    // The first page keeps its header once (a title, often); the page numbers go everywhere.
    expect(out.cells.map((c) => c.text)).toEqual([
      "Orbit Report - Confidential",
      ...[1, 2, 3, 4].map((n) => `Body of page ${n} is here.`),
      "Last page text.",
    ]);
    expect(out.factions[0]?.text).toBe("Orbit Report - Confidential\n\nBody of page 1 is here.\n\nPage 1 of 4");
  });

  it("stops at the page limit and at the text limit", async () => {
    const pages = Array.from({ length: 6 }, (_, i) => [{ text: `Page ${i + 1} has forty characters of text.` }]);
    const byPages = await readPdf(input(buildPdf(pages)), { maxPages: 4, maxTextChars: 1_000_000 });
    expect(byPages.factions.map((f) => f.location.pdfPageStart)).toEqual([1, 2, 3, 4]);
    const byText = await readPdf(input(buildPdf(pages)), { maxPages: 100, maxTextChars: 70 });
    expect(byText.factions.map((f) => f.location.pdfPageStart)).toEqual([1, 2]);
    expect(PDF_LIMITS).toEqual({ maxPages: 2_000, maxTextChars: 10_000_000 });
  });

  it("refuses encrypted and malformed files with a clear message", async () => {
    await expect(read(encrypted(buildPdf(REPORT)))).rejects.toThrow(/encrypted: a password is required/);
    await expect(read(new TextEncoder().encode("%PDF-1.4 nothing else"))).rejects.toThrow(/not a valid PDF file/);
    await expect(read(new Uint8Array())).rejects.toThrow(/not a valid PDF file/);
    await expect(read(buildPdf(REPORT).slice(0, 300))).rejects.toThrow(/not a valid PDF file/);
  });

  it("writes nothing to stdout or the console, and leaves the caller's bytes intact", async () => {
    const write = vi.spyOn(process.stdout, "write");
    const log = vi.spyOn(console, "log");
    const warn = vi.spyOn(console, "warn");
    const bytes = buildPdf(REPORT);
    const copy = bytes.slice();
    await read(bytes);
    await read(new TextEncoder().encode("garbage")).catch(() => undefined);
    expect(write).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
    expect(bytes).toEqual(copy);
  });
});
