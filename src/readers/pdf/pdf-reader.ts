/**
 * PDF: one `page` faction per page (its text in reading order, paragraphs
 * separated by a blank line) located by `pdfPageStart` = `pdfPageEnd` = the
 * page number; no line keys, since a PDF has no source lines. Cells are
 * the sentences of each paragraph, except licence notices and the running
 * headers, footers and page numbers repeated on page after page. A page
 * without text (a scan, a blank page) keeps its faction and yields no
 * cells.
 */
import { isBoilerplate } from "../common/boilerplate.js";
import { DocumentBuilder } from "../common/document-builder.js";
import { matchesKind } from "../common/file-kind.js";
import type { PdfDocument } from "./pdf-document.js";
import { openPdf } from "./pdf-document.js";
import { joinLines, pageParagraphs, runningKey, runningTexts } from "./pdf-page-text.js";
import { checkPdfStreams } from "./pdf-streams.js";
import type { Reader, ReaderInput, ReadOutput } from "../reader.js";
import { splitSentences } from "../common/sentences.js";

const PDF_TYPES = new Set(["application/pdf", "application/x-pdf"]);
const PDF_EXTENSIONS = [".pdf"];

/** How much of a PDF is read. */
export interface PdfLimits {
  /** Pages after this one are not read. */
  maxPages: number;
  /** Once this much text has been read, later pages are not. */
  maxTextChars: number;
}

/** The limits the reader applies: 2,000 pages, 10 million characters (about 5,000 dense pages). */
export const PDF_LIMITS: Readonly<PdfLimits> = { maxPages: 2_000, maxTextChars: 10_000_000 };

/** A page that cannot be decoded reads as empty; the rest of the document still counts. */
async function pageParagraphsOf(doc: PdfDocument, pageNumber: number): Promise<string[][]> {
  try {
    return pageParagraphs(await doc.pageRuns(pageNumber));
  } catch {
    return [];
  }
}

/** Sentences of every paragraph but licence notices and running headers, footers and page numbers. */
function paragraphCells(paragraphs: readonly string[][], running: ReadonlySet<string>): string[] {
  return paragraphs.flatMap((lines) => {
    const text = joinLines(lines);
    return isBoilerplate(text) || running.has(runningKey(lines)) ? [] : splitSentences(text);
  });
}

/** Each page's paragraphs, from the first page until a limit is reached. */
async function readPages(doc: PdfDocument, limits: Readonly<PdfLimits>): Promise<string[][][]> {
  const pages: string[][][] = [];
  const last = Math.min(doc.numPages, limits.maxPages);
  let chars = 0;
  for (let page = 1; page <= last && chars < limits.maxTextChars; page++) {
    const paragraphs = await pageParagraphsOf(doc, page);
    chars += paragraphs.reduce((sum, lines) => sum + lines.reduce((n, line) => n + line.length + 1, 0), 0);
    pages.push(paragraphs);
  }
  return pages;
}

/**
 * Reads a PDF within `limits`. Throws a clear error for encrypted and
 * malformed files, and "document inflates past N MiB" for streams that
 * decode past the caps of `pdf-streams.ts` (checked before pdf.js opens
 * the file); a single page that fails to decode reads as empty.
 */
export async function readPdf(input: ReaderInput, limits: Readonly<PdfLimits> = PDF_LIMITS): Promise<ReadOutput> {
  await checkPdfStreams(input.bytes);
  const doc = await openPdf(input.bytes);
  let pages: string[][][];
  try {
    pages = await readPages(doc, limits);
  } finally {
    await doc.close();
  }
  const running = runningTexts(pages);
  // The first page states a document's title once; later pages repeat it as their header.
  const firstPage = new Set(running);
  const title = pages[0]?.[0];
  if (title !== undefined && runningKey(title) !== "#") firstPage.delete(runningKey(title));
  const builder = new DocumentBuilder();
  pages.forEach((paragraphs, i) => {
    const text = paragraphs.map((lines) => lines.join("\n")).join("\n\n");
    const location = { pdfPageStart: i + 1, pdfPageEnd: i + 1 };
    builder.block({ factionType: "page", inferredType: "application/pdf", location, text }, paragraphCells(paragraphs, i === 0 ? firstPage : running));
  });
  return builder.finish();
}

/** Reader for PDF documents (`application/pdf`, `.pdf`). */
export const pdfReader: Reader = {
  name: "pdf",
  accepts: (input) => matchesKind(input, PDF_EXTENSIONS, PDF_TYPES),
  read: (input) => readPdf(input),
};
