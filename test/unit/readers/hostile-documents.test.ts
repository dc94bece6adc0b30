/**
 * Hostile documents, built at the sizes that once blocked a reader for
 * minutes or blew its heap: each is now refused with a clear message, or
 * read, within a time bound and without a large new memory peak. The
 * bounds are generous (these guard correctness, not speed): the old
 * behaviour missed them by one to three orders of magnitude.
 */
import { deflateSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_DOCX_XML_BYTES } from "../../../src/readers/docx/docx-package.js";
import { readerFor } from "../../../src/readers/index.js";
import type { ReadOutput } from "../../../src/readers/reader.js";
import { docxNested, docxOfXml, pdfContentBomb, pdfOfObjects, pdfStream, zlibRepeated } from "../../support/hostile-archives.js";
import {
  HOSTILE_FORMATS, hostileGenerators, htmlNested, jsonNested, markdownNestedList, markdownQuoteListBomb,
  randomBytes, seededRng, tomlNested, yamlNested,
} from "../../support/hostile-documents.js";
import { buildDocx } from "../../support/docx-fixture.js";
import { buildPdf } from "../../support/pdf-fixture.js";

const KIB = 1024;
const MIB = 1024 * KIB;
/** Processor time allowed per document (processor time, so that a loaded machine does not count). */
const TIME_LIMIT_MS = 5_000;
/** Growth allowed of the process's peak memory per document. */
const MEMORY_LIMIT_BYTES = 300 * MIB;

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const tooDeep = (levels: number): RegExp => new RegExp(`^document nests deeper than ${levels} levels$`);
const inflatesPast = (mib: number): RegExp => new RegExp(`^document inflates past ${mib} MiB$`);
const NOT_TEXT = /^file is not text$/;

/** What reading one file came to, and what it cost. */
interface Reading {
  output?: ReadOutput;
  error?: Error;
  ms: number;
  peakGrowth: number;
}

async function readFile(path: string, bytes: Uint8Array): Promise<Reading> {
  const reader = readerFor({ path, contentType: "" });
  if (reader === undefined) throw new Error(`no reader for ${path}`);
  const peak = process.resourceUsage().maxRSS * 1024;
  const started = process.cpuUsage();
  let output: ReadOutput | undefined;
  let error: Error | undefined;
  try {
    output = await reader.read({ path, contentType: "", bytes });
  } catch (err) {
    error = err instanceof Error ? err : new Error(String(err));
  }
  const used = process.cpuUsage(started);
  const ms = (used.user + used.system) / 1000;
  return { output, error, ms, peakGrowth: process.resourceUsage().maxRSS * 1024 - peak };
}

function expectBounded(reading: Reading): void {
  expect(reading.ms).toBeLessThan(TIME_LIMIT_MS);
  expect(reading.peakGrowth).toBeLessThan(MEMORY_LIMIT_BYTES);
}

async function expectRefused(path: string, bytes: Uint8Array, message: RegExp): Promise<void> {
  const reading = await readFile(path, bytes);
  expect(reading.error?.message).toMatch(message);
  expectBounded(reading);
}

async function expectRead(path: string, bytes: Uint8Array): Promise<ReadOutput> {
  const reading = await readFile(path, bytes);
  expect(reading.error).toBeUndefined();
  expectBounded(reading);
  return reading.output as ReadOutput;
}

beforeAll(async () => {
  // Load pdf.js and mammoth once, so their code is not counted as a document's memory.
  await expectRead("warm.pdf", buildPdf([[{ text: "Warm." }]]));
  await expectRead("warm.docx", buildDocx([{ kind: "p", text: "Warm." }]));
}, 60_000);

describe("hostile Markdown", () => {
  it("refuses 100,000 > then 50,000 - (200 KB)", async () => {
    await expectRefused("a.md", markdownQuoteListBomb(), tooDeep(64));
  });

  it("refuses 20 KB of list items nested ever deeper", async () => {
    await expectRefused("a.md", markdownNestedList(20 * KIB), tooDeep(64));
  });

  it("reads long lists of nested lists in linear time", async () => {
    // Each item closing a sublist used to cost the whole document so far.
    const out = await expectRead("a.md", utf8("- - item\n".repeat(20 * KIB / 9)));
    expect(out.factions).toHaveLength(1);
    await expectRead("b.md", utf8("- > quoted\n".repeat(20 * KIB / 11)));
  });

  it("refuses 2 MB of random bytes named .md as not text", async () => {
    await expectRefused("a.md", randomBytes(2 * MIB, seededRng(1)), NOT_TEXT);
  });
});

describe("hostile HTML", () => {
  it("refuses 2.2 MB of nested <div>", async () => {
    await expectRefused("a.html", htmlNested(440_000), tooDeep(256));
  });

  it("reads 2 MB of elements nested just under the cap", async () => {
    const unit = `${"<div>".repeat(250)}<p>Deep text.</p>${"</div>".repeat(250)}`;
    const out = await expectRead("a.html", utf8(`<html><body>${unit.repeat(2 * MIB / unit.length)}</body></html>`));
    expect(out.cells.length).toBeGreaterThan(100);
  });
});

describe("hostile Word documents", () => {
  it("refuses a 300 KB .docx holding 96 MB of XML after inflating no more than the cap", async () => {
    await expectRefused("a.docx", docxOfXml(96 * MIB), inflatesPast(MAX_DOCX_XML_BYTES / MIB));
  });

  it("refuses an entry that declares 1 KB and inflates to 300 MB", async () => {
    await expectRefused("a.docx", docxOfXml(300 * MIB, { declaredSize: 1024 }), inflatesPast(16));
  });

  it("refuses XML under the byte cap but too dense for the converter", async () => {
    await expectRefused("a.docx", docxOfXml(12 * MIB), /^document holds more than 400000 elements$/);
  });

  it("refuses tables nested 20,000 deep before converting them", async () => {
    await expectRefused("a.docx", docxNested(20_000), tooDeep(256));
  });
});

describe("hostile PDFs", () => {
  const onePage = (contents: string, stream: Buffer): Uint8Array =>
    pdfOfObjects([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contents} >>`,
      pdfStream("/Filter /FlateDecode", stream),
    ]);

  it("refuses a 1 MB PDF whose page content inflates to 1 GB", async () => {
    await expectRefused("a.pdf", pdfContentBomb(1024 * MIB), inflatesPast(64));
  });

  it("refuses the same stream marked as an image but named as page content", async () => {
    await expectRefused("a.pdf", pdfContentBomb(1024 * MIB, { asImage: true }), inflatesPast(64));
  });

  it("refuses filters chained to multiply each other", async () => {
    await expectRefused("a.pdf", pdfContentBomb(1024 * MIB, { filters: 3 }), inflatesPast(64));
  });

  it("refuses a damaged stream compressed twice, on which pdf.js would wait forever", async () => {
    const twice = deflateSync(deflateSync(Buffer.from("BT /F1 12 Tf (Hello) Tj ET")));
    twice[twice.length - 1] = (twice[twice.length - 1] ?? 0) ^ 0xff;
    const pdf = pdfOfObjects([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
      pdfStream("/Filter [/FlateDecode /FlateDecode]", twice),
    ]);
    await expectRefused("a.pdf", pdf, /^PDF could not be read: a stream compressed twice is damaged$/);
  });

  it("counts a content stream once per page naming it", async () => {
    const stream = zlibRepeated(" ", 60 * MIB);
    await expectRefused("a.pdf", onePage("[4 0 R 4 0 R 4 0 R 4 0 R 4 0 R]", stream), inflatesPast(256));
    await expectRead("b.pdf", onePage("4 0 R", zlibRepeated(" ", 4 * MIB)));
  });
});

describe("hostile configuration and data", () => {
  it("refuses JSON nested 10,000 deep", async () => {
    await expectRefused("a.json", jsonNested(10_000), tooDeep(128));
    await expectRefused("b.json", jsonNested(10_000, "object"), tooDeep(128));
  });

  it("refuses YAML nested deep in flow, block and compact style", async () => {
    await expectRefused("a.yaml", yamlNested(10_000), tooDeep(128));
    await expectRefused("b.yaml", utf8(`a: ${"[".repeat(500_000)}${"]".repeat(500_000)}\n`), tooDeep(128));
    await expectRefused("c.yaml", yamlNested(1_400, "block"), tooDeep(128));
    await expectRefused("d.yaml", utf8(`${"- ".repeat(2_000)}x\n`), tooDeep(128));
  });

  it("refuses TOML nested deep in arrays, inline tables and dotted headers", async () => {
    await expectRefused("a.toml", tomlNested(10_000), tooDeep(128));
    await expectRefused("b.toml", tomlNested(10_000, "table"), tooDeep(128));
    await expectRefused("c.toml", utf8(`[${Array(50_000).fill("a").join(".")}]\nx = 1\n`), tooDeep(128));
  });

  it("reads JSON Lines whose records nest 10,000 deep, with no claim for those records", async () => {
    const line = new TextDecoder().decode(jsonNested(10_000));
    const out = await expectRead("a.jsonl", utf8(`{"id": 1}\n${`${line}\n`.repeat(50)}`));
    expect(out.factions).toHaveLength(52);
    expect(out.cells.map((c) => c.text).slice(1)).toEqual(["id: 1"]);
  });

  it("refuses random bytes under a CSV or subtitle name as not text", async () => {
    await expectRefused("a.csv", randomBytes(2 * MIB, seededRng(2)), NOT_TEXT);
    await expectRefused("a.vtt", randomBytes(2 * MIB, seededRng(3)), NOT_TEXT);
  });
});

describe("hostile text and code", () => {
  it("refuses random bytes named .txt, and reads none from an extensionless file", async () => {
    await expectRefused("a.txt", randomBytes(2 * MIB, seededRng(4)), NOT_TEXT);
    expect((await expectRead("README", randomBytes(2 * MIB, seededRng(5)))).factions).toEqual([]);
  });

  it("gives source code without text or nested 100,000 deep no units, before parsing", async () => {
    const noise = await expectRead("a.ts", randomBytes(2 * MIB, seededRng(6)));
    expect(noise.code?.problems).toEqual(["not_text"]);
    const braces = await expectRead("b.ts", utf8("{".repeat(100_000)));
    expect(braces.code?.problems).toEqual(["too_deep"]);
    const parens = await expectRead("c.py", utf8(`x = ${"[".repeat(100_000)}`));
    expect(parens.code?.problems).toEqual(["too_deep"]);
  });
});

describe("hostile document generators", () => {
  const REFUSAL =
    /^(document nests deeper than \d+ levels|document inflates past \d+ MiB|document holds more than \d+ elements|file is not text|not a valid (DOCX|PDF) file.*|PDF could not be read.*)$/s;

  it.each(HOSTILE_FORMATS)("%s: each document is read or refused clearly, within the bounds", async (format) => {
    const rng = seededRng(HOSTILE_FORMATS.indexOf(format) + 1);
    for (let i = 0; i < 2; i++) {
      const doc = hostileGenerators[format](rng);
      expect(readerFor({ path: doc.path, contentType: "" })).toBeDefined();
      const reading = await readFile(doc.path, doc.bytes);
      if (reading.error !== undefined) expect(reading.error.message).toMatch(REFUSAL);
      expectBounded(reading);
    }
  }, 60_000);
});
