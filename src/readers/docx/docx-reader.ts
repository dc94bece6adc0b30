/**
 * Word documents (.docx): converted to HTML by mammoth (headings from the
 * paragraph styles, lists from numbering, tables), then read block by block
 * like an HTML page. A .docx has neither lines nor pages in its source
 * (pagination is decided by whoever renders it), so factions carry no
 * location keys at all; their text is the block's plain text. The package
 * is checked and unpacked here first (see `docx-package.ts`): the
 * converter only ever sees XML parts within the caps.
 */
import { matchesKind } from "../common/file-kind.js";
import { checkedDocxPackage } from "./docx-package.js";
import { htmlBlocks } from "../html/html-blocks.js";
import { parseHtml } from "../html/html-parse.js";
import { readHtmlBlocks } from "../html/html-reader.js";
import type { Reader, ReaderInput, ReadOutput } from "../reader.js";

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const DOCX_TYPES = new Set([DOCX_TYPE]);
const DOCX_EXTENSIONS = [".docx"];

/** Word's "Title" style opens the document; read it as the top heading. */
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => p:fresh"];

/** Converts to HTML; images are left out (their alt text stays), external files are never read. */
async function toHtml(bytes: Uint8Array): Promise<string> {
  const checked = checkedDocxPackage(bytes);
  const { default: mammoth } = await import("mammoth");
  const noImage = mammoth.images.imgElement(() => Promise.resolve({ src: "" }));
  try {
    const buffer = Buffer.from(checked.buffer, checked.byteOffset, checked.byteLength);
    const result = await mammoth.convertToHtml({ buffer }, { styleMap: STYLE_MAP, convertImage: noImage, externalFileAccess: false });
    return result.value;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`not a valid DOCX file: ${reason}`, { cause: err });
  }
}

async function readDocx(input: ReaderInput): Promise<ReadOutput> {
  const html = await toHtml(input.bytes);
  const blocks = htmlBlocks(parseHtml(html), { guessTableHeaders: true });
  return readHtmlBlocks(blocks, DOCX_TYPE, (block) => ({ location: {}, text: block.plain }));
}

/** Reader for Word documents (`.docx`). */
export const docxReader: Reader = {
  name: "docx",
  accepts: (input) => matchesKind(input, DOCX_EXTENSIONS, DOCX_TYPES),
  read: readDocx,
};
