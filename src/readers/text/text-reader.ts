/**
 * Plain text (`.txt`, `.text`, `.rst`, `.log`, extensionless UTF-8 files):
 * paragraphs become `text` factions with one cell per sentence; headings,
 * lists and diagrams are recognised by the shapes in `text-blocks.ts`.
 * Log files get one cell per line instead, since log lines are not prose.
 */
import { decodeCleanText, isReadableText } from "../../text/decode-text.js";
import type { BlockSpan } from "../common/document-builder.js";
import { DocumentBuilder } from "../common/document-builder.js";
import type { FactionType, Reader, ReaderInput, ReadOutput } from "../reader.js";
import { readableText } from "../common/refusals.js";
import { capCellText, collapseWhitespace, splitSentences } from "../common/sentences.js";
import type { TextBlock, TextBlockKind } from "./text-blocks.js";
import { lineRuns, textBlocks } from "./text-blocks.js";

const TEXT_TYPES = new Set(["text/plain", "text/x-rst", "text/x-log"]);
const TEXT_EXTENSIONS = [".txt", ".text", ".rst", ".log"];
/** Types an extensionless file may carry when nothing better was known. */
const UNKNOWN_TYPES = new Set(["", "application/octet-stream"]);
/** Log runs are cut into factions of this many lines so appends stay local. */
const LOG_LINES_PER_FACTION = 100;

const FACTION_TYPE: Record<TextBlockKind, FactionType> = {
  heading: "heading",
  paragraph: "text",
  columns: "text",
  list: "list",
  preformatted: "code_block",
};

function mediaTypeOf(contentType: string): string {
  return contentType.split(";")[0]?.trim().toLowerCase() ?? "";
}

function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot) : "";
}

/** Whether only the bytes can tell that the file is text. */
function needsSniffing(input: Pick<ReaderInput, "path" | "contentType">): boolean {
  const mediaType = mediaTypeOf(input.contentType);
  return !TEXT_TYPES.has(mediaType) && !TEXT_EXTENSIONS.includes(extensionOf(input.path));
}

function inferredTypeOf(input: ReaderInput): string {
  if (extensionOf(input.path) === ".rst") return "text/x-rst";
  const mediaType = mediaTypeOf(input.contentType);
  return mediaType.startsWith("text/") ? mediaType : "text/plain";
}

function isLog(input: ReaderInput): boolean {
  return extensionOf(input.path) === ".log" || mediaTypeOf(input.contentType) === "text/x-log";
}

/** One cell per string, whitespace collapsed and capped. */
function eachCell(texts: readonly string[]): string[] {
  return texts.flatMap((text) => capCellText(collapseWhitespace(text)));
}

function blockCells(block: TextBlock): string[] {
  if (block.kind === "paragraph") return splitSentences(block.lines.join("\n"));
  if (block.kind === "list") return eachCell(block.items ?? []);
  // Lines laid out in columns (title blocks, tables) are read line by line.
  if (block.kind === "columns") return eachCell(block.lines);
  // Diagrams and tables of figures make poor claims; the faction keeps them.
  return [];
}

function addBlocks(builder: DocumentBuilder, text: string, inferredType: string): void {
  const levels = new Map<string, number>();
  for (const block of textBlocks(text)) {
    const span: BlockSpan = {
      factionType: FACTION_TYPE[block.kind],
      inferredType,
      location: { lineStart: block.lineStart, lineEnd: block.lineEnd },
      text: block.lines.join("\n"),
    };
    if (block.kind === "heading") {
      // Levels follow the order in which heading styles first appear.
      const style = block.style ?? "";
      if (!levels.has(style)) levels.set(style, levels.size + 1);
      const title = capCellText(collapseWhitespace(block.title ?? ""))[0] ?? "";
      builder.heading(levels.get(style) ?? 1, title, span);
    } else {
      builder.block(span, blockCells(block));
    }
  }
}

function addLogLines(builder: DocumentBuilder, text: string, inferredType: string): void {
  for (const run of lineRuns(text)) {
    for (let i = 0; i < run.lines.length; i += LOG_LINES_PER_FACTION) {
      const lines = run.lines.slice(i, i + LOG_LINES_PER_FACTION);
      const lineStart = run.lineStart + i;
      const location = { lineStart, lineEnd: lineStart + lines.length - 1 };
      const text = lines.join("\n");
      builder.block({ factionType: "text", inferredType, location, text }, eachCell(lines));
    }
  }
}

/** The text of an extensionless file: only clean, readable text counts (anything else is no text file). */
function sniffedText(bytes: Uint8Array): string | undefined {
  const text = decodeCleanText(bytes);
  return text !== undefined && isReadableText(text) ? text : undefined;
}

function readText(input: ReaderInput): ReadOutput {
  // A declared text file with a stray bad byte is still read, and one that
  // decodes to noise is refused; an extensionless file must decode cleanly
  // to count as text at all.
  const text = needsSniffing(input) ? sniffedText(input.bytes) : readableText(input.bytes);
  const builder = new DocumentBuilder();
  if (text === undefined) return builder.finish();
  const inferredType = inferredTypeOf(input);
  if (isLog(input)) addLogLines(builder, text, inferredType);
  else addBlocks(builder, text, inferredType);
  return builder.finish();
}

/**
 * Reader for plain text. Accepts text media types and extensions, and
 * extensionless files of unknown type; for the latter, bytes that are not
 * clean, readable UTF-8 (or hold a NUL) yield no factions. A declared text
 * file that decodes to noise is refused ("file is not text").
 */
export const textReader: Reader = {
  name: "text",
  accepts(input) {
    if (!needsSniffing(input)) return true;
    return extensionOf(input.path) === "" && UNKNOWN_TYPES.has(mediaTypeOf(input.contentType));
  },
  read: readText,
};
