/**
 * The last reader tried: any readable text file no other reader takes — a
 * language without a grammar (SQL, CSS, a Makefile, a Dockerfile, Protocol
 * Buffers) or an extension nothing knows — is cut into runs of lines, each
 * a faction with its text as cells, so a word in it is found by search like
 * a word anywhere else. Nothing about the language is assumed: runs end at
 * blank lines, and a run past {@link MAX_RUN_LINES} is cut.
 *
 * Bytes that do not decode cleanly as readable text (an image, an archive,
 * a binary under an unknown name) give an empty reading, as before this
 * reader existed.
 */
import { decodeCleanText, isReadableText } from "../../text/decode-text.js";
import { extensionOf, mediaTypeOf } from "../common/file-kind.js";
import { capCellText, collapseWhitespace } from "../common/sentences.js";
import type { FactionType, Reader, ReaderInput, ReadFaction, ReadOutput } from "../reader.js";

/** A run stops growing at a blank line once it holds this many lines, so a faction is a screenful. */
const MIN_RUN_LINES = 12;
/** Longest run kept as one faction; longer paragraphs are cut, so an edit stays local. */
const MAX_RUN_LINES = 60;
/** Media types whose bytes are never text: not worth a decode. */
const BINARY_TYPES = /^(image|audio|video|font)\/|^application\/(zip|gzip|x-tar|x-7z-compressed|wasm|vnd\.sqlite3|pdf)$/;
/** Extensions of media containers and binaries, which reach no reader whatever type they are sent with. */
const BINARY_EXTENSIONS = new Set(
  (
    "png jpg jpeg gif webp bmp ico tif tiff heic avif psd mp3 wav ogg oga flac m4a aac opus mp4 m4v mov webm mkv avi " +
    "wmv flv zip gz tgz bz2 xz zst 7z rar tar jar war whl egg wasm exe dll so dylib bin o a lib class pyc db sqlite " +
    "sqlite3 woff woff2 ttf otf eot pdf docx xlsx pptx odt iso dmg"
  ).split(" ").map((ext) => `.${ext}`),
);
/** Types that say nothing about the bytes: the faction is plain text unless its lines look like code. */
const UNTELLING_TYPES = new Set(["", "application/octet-stream", "text/plain"]);
/** Marks that code is dense in and prose is not (brackets, operators, quotes, separators). */
const CODE_MARKS = /[{}[\]()<>;=`"'\\|&$]/g;
/**
 * A run of an untelling file whose visible characters are at least this
 * share of code marks reads as code (a test snapshot, a drawing's JSON, an
 * unnamed script): prose sits near 1 %, code and data well past 8 %. It
 * matters for what follows the reading: prose is tagged for proper names
 * word by word, which on a snapshot's markup was most of a vuejs/core
 * reading's entity time and found no name worth keeping, while a code
 * block yields its identifiers alone.
 */
const CODE_MARK_SHARE = 0.06;

/** Whether a run of untelling text looks like code rather than prose. */
function looksLikeCode(body: string): boolean {
  const visible = body.replace(/\s+/g, "").length;
  return visible > 0 && (body.match(CODE_MARKS)?.length ?? 0) / visible >= CODE_MARK_SHARE;
}

interface Run {
  lineStart: number;
  lines: string[];
}

/** Runs of lines: blank lines close a run once it is long enough; a run never passes the cap. */
function lineRuns(text: string): Run[] {
  const runs: Run[] = [];
  let run: Run | undefined;
  text.split("\n").forEach((line, index) => {
    const blank = line.trim().length === 0;
    if (run && (run.lines.length >= MAX_RUN_LINES || (blank && run.lines.length >= MIN_RUN_LINES))) {
      runs.push(run);
      run = undefined;
    }
    if (!run && blank) return;
    run ??= { lineStart: index + 1, lines: [] };
    run.lines.push(line);
  });
  if (run) runs.push(run);
  return runs;
}

/** Trailing blank lines belong to no run. */
function trimmed(run: Run): Run {
  let end = run.lines.length;
  while (end > 0 && (run.lines[end - 1] ?? "").trim().length === 0) end--;
  return { lineStart: run.lineStart, lines: run.lines.slice(0, end) };
}

function readLexical(input: ReaderInput): ReadOutput {
  const output: ReadOutput = { factions: [], cells: [] };
  const text = decodeCleanText(input.bytes);
  if (text === undefined || !isReadableText(text)) return output;
  const mediaType = mediaTypeOf(input.contentType);
  // A named type (text/x-sql, text/css) says the file is code; without one it is just text.
  const untelling = UNTELLING_TYPES.has(mediaType);
  const inferredType = untelling ? "text/plain" : mediaType;
  for (const run of lineRuns(text).map(trimmed)) {
    if (run.lines.length === 0) continue;
    const body = run.lines.join("\n");
    const factionType: FactionType = untelling && !looksLikeCode(body) ? "text" : "code_block";
    const faction: ReadFaction = {
      factionType,
      inferredType,
      location: { lineStart: run.lineStart, lineEnd: run.lineStart + run.lines.length - 1 },
      text: body,
      headingPath: [],
    };
    const index = output.factions.push(faction) - 1;
    for (const cell of capCellText(collapseWhitespace(body))) output.cells.push({ faction: index, text: cell });
  }
  return output;
}

/** Reader of last resort: every type that could be text, read as runs of lines. */
export const lexicalReader: Reader = {
  name: "lexical",
  accepts: (input) => !BINARY_TYPES.test(mediaTypeOf(input.contentType)) && !BINARY_EXTENSIONS.has(extensionOf(input.path)),
  read: readLexical,
};
