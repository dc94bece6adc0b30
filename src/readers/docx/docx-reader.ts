/**
 * Word documents (.docx): converted to HTML by mammoth (headings from the
 * paragraph styles, lists from numbering, tables), then read block by block
 * like an HTML page. A .docx has neither lines nor pages in its source
 * (pagination is decided by whoever renders it), so factions carry no
 * location keys at all; their text is the block's plain text.
 */
import { parseDocument } from "htmlparser2";
import { matchesKind } from "../shared/file-kind.js";
import { htmlBlocks } from "../html/html-blocks.js";
import { readHtmlBlocks } from "../html/html-reader.js";
import type { Reader, ReaderInput, ReadOutput } from "../reader.js";
import { declaredUnpackedSize } from "../shared/zip-size.js";

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const DOCX_TYPES = new Set([DOCX_TYPE]);
const DOCX_EXTENSIONS = [".docx"];

/**
 * Refuse packages that declare more than this unpacked: the converter
 * inflates every part in memory. Text-heavy documents of thousands of pages
 * stay well below it; the bulk of a large .docx is its images.
 */
export const MAX_DOCX_UNPACKED_BYTES = 256 * 1024 * 1024;

/** Word's "Title" style opens the document; read it as the top heading. */
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => p:fresh"];

/** Converts to HTML; images are left out (their alt text stays), external files are never read. */
async function toHtml(bytes: Uint8Array): Promise<string> {
  const size = declaredUnpackedSize(bytes);
  if (size === undefined) throw new Error("not a valid DOCX file: no ZIP directory found");
  if (size > MAX_DOCX_UNPACKED_BYTES) {
    throw new Error(`DOCX file too large: it unpacks to more than ${MAX_DOCX_UNPACKED_BYTES / 1024 / 1024} MiB`);
  }
  const { default: mammoth } = await import("mammoth");
  const noImage = mammoth.images.imgElement(() => Promise.resolve({ src: "" }));
  try {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const result = await mammoth.convertToHtml({ buffer }, { styleMap: STYLE_MAP, convertImage: noImage, externalFileAccess: false });
    return result.value;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`not a valid DOCX file: ${reason}`, { cause: err });
  }
}

async function readDocx(input: ReaderInput): Promise<ReadOutput> {
  const html = await toHtml(input.bytes);
  const blocks = htmlBlocks(parseDocument(html), { guessTableHeaders: true });
  return readHtmlBlocks(blocks, DOCX_TYPE, (block) => ({ location: {}, text: block.plain }));
}

/** Reader for Word documents (`.docx`). */
export const docxReader: Reader = {
  name: "docx",
  accepts: (input) => matchesKind(input, DOCX_EXTENSIONS, DOCX_TYPES),
  read: readDocx,
};
