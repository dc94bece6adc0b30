/**
 * Opens PDFs with pdf.js for text extraction only, under Node and without
 * side effects: no worker thread, no fonts installed, no network, no eval,
 * and no console output (stdout carries JSON-RPC in stdio mode). pdf.js is
 * loaded on first use, so processes that never see a PDF never load it.
 */
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type { PdfTextRun } from "./pdf-page-text.js";

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");

/** An open document: its page count, each page's text runs, and a way to let go of it. */
export interface PdfDocument {
  numPages: number;
  pageRuns(pageNumber: number): Promise<PdfTextRun[]>;
  close(): Promise<void>;
}

let loading: Promise<PdfJs> | undefined;

function loadPdfJs(): Promise<PdfJs> {
  loading ??= import("pdfjs-dist/legacy/build/pdf.mjs");
  return loading;
}

/**
 * Character maps and standard font metrics ship inside the package; given
 * as local directories, pdf.js reads them from disk when a PDF needs them
 * (CJK text, unembedded fonts) instead of giving up on that text.
 */
function packageDir(sub: string): string {
  const root = dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));
  return `${root}/${sub}/`;
}

function readError(err: unknown): Error {
  const name = err instanceof Error ? err.name : "";
  const message = err instanceof Error ? err.message : String(err);
  if (name === "PasswordException") return new Error("PDF is encrypted: a password is required to read it", { cause: err });
  if (name === "InvalidPDFException") return new Error(`not a valid PDF file: ${message}`, { cause: err });
  return new Error(`PDF could not be read: ${message}`, { cause: err });
}

/** Opens the PDF in `bytes` (copied: pdf.js takes ownership of what it is given). */
export async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    disableAutoFetch: true,
    disableStream: true,
    cMapUrl: packageDir("cmaps"),
    cMapPacked: true,
    standardFontDataUrl: packageDir("standard_fonts"),
  });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy();
    throw readError(err);
  }
  return {
    numPages: doc.numPages,
    async pageRuns(pageNumber) {
      const page = await doc.getPage(pageNumber);
      try {
        const content = await page.getTextContent();
        return content.items.filter((item): item is PdfTextRun & (typeof content.items)[number] => "str" in item);
      } finally {
        page.cleanup();
      }
    },
    close: () => task.destroy(),
  };
}
