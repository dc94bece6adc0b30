/**
 * Where a Markdown document may be cut into parts that parse on their own:
 * the lines that start a heading at column 1 (`# …`, or a setext title
 * after a blank line). Such a line closes every open block before it — a
 * list, a quote, a paragraph, a table — unless it sits inside a fenced code
 * block, an HTML block or the front matter, so the text above it and the
 * text from it on parse as they would in the whole document.
 *
 * The scan is a cheap, linear guess: it follows top-level fences, HTML
 * blocks and the front matter to skip headings inside them, but it does
 * not model containers (a fence inside a list item ends with the item).
 * Whoever relies on a cut checks it with the parser itself (the part
 * above, parsed with the heading's lines after it, must end with that
 * heading as a top-level node; see `markdown-incremental.ts`), so a wrong
 * guess costs a parse, never a wrong reading. The front matter is the one
 * construct that check cannot see (front matter that is never closed is
 * no front matter), so no cut is offered before it closes.
 */

/** A line where a top-level heading may start. */
export interface BlockStart {
  /** Offset of the line's first character in the source. */
  readonly offset: number;
  /** 1-based line number. */
  readonly line: number;
  /** Lines of the heading itself: 1 for `# …`, 2 for a setext title and its underline. */
  readonly headingLines: 1 | 2;
}

const ATX = /^#{1,6}(?:[ \t]|$)/;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
const FRONT_MATTER_FENCE = /^---[ \t]*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const BLANK = /^[ \t]*$/;
const HTML_RAW = /^ {0,3}<(?:script|pre|style|textarea)(?=[\s>]|$)/i;
const HTML_RAW_END = /<\/(?:script|pre|style|textarea)>/i;
const HTML_OTHER = /^ {0,3}</;

/** What the scan is inside of at a line. */
type Open =
  | { readonly kind: "front-matter" }
  | { readonly kind: "fence"; readonly char: string; readonly length: number }
  /** An HTML block that ends at the line holding `end`. */
  | { readonly kind: "html"; readonly end: (line: string) => boolean }
  /** An HTML block (or what may be one) that ends at a blank line. */
  | { readonly kind: "html-until-blank" };

/** The HTML block a line opens at the top level, if any; `undefined` when the line opens none or closes it at once. */
function htmlOpened(line: string): Open | undefined {
  const indent = line.length - line.trimStart().length;
  if (indent > 3 || line[indent] !== "<") return undefined;
  const rest = line.slice(indent);
  const endingWith = (opener: number, marker: string): Open | undefined =>
    rest.includes(marker, opener) ? undefined : { kind: "html", end: (l) => l.includes(marker) };
  if (HTML_RAW.test(line)) return HTML_RAW_END.test(rest) ? undefined : { kind: "html", end: (l) => HTML_RAW_END.test(l) };
  if (rest.startsWith("<!--")) return endingWith(4, "-->");
  if (rest.startsWith("<?")) return endingWith(2, "?>");
  if (rest.startsWith("<![CDATA[")) return endingWith(9, "]]>");
  if (/^<![A-Za-z]/.test(rest)) return endingWith(2, ">");
  return HTML_OTHER.test(line) ? { kind: "html-until-blank" } : undefined;
}

/** The fence a line opens, if any (a backtick fence's info string holds no backtick). */
function fenceOpened(line: string): Open | undefined {
  const match = FENCE_OPEN.exec(line);
  const run = match?.[1];
  if (run === undefined) return undefined;
  const char = run[0] ?? "`";
  if (char === "`" && (match?.[2] ?? "").includes("`")) return undefined;
  return { kind: "fence", char, length: run.length };
}

/** Whether `line` leaves what was open; the state after it otherwise stays. */
function closes(open: Open, line: string): boolean {
  switch (open.kind) {
    case "front-matter":
      return FRONT_MATTER_FENCE.test(line);
    case "fence": {
      const run = FENCE_CLOSE.exec(line)?.[1];
      return run !== undefined && run[0] === open.char && run.length >= open.length;
    }
    case "html":
      return open.end(line);
    case "html-until-blank":
      return BLANK.test(line);
  }
}

/**
 * The lines of `source` (LF line endings) where a top-level heading may
 * start, in order, the first line excluded (nothing to cut there). Linear
 * in the length of the source.
 */
export function blockStarts(source: string): BlockStart[] {
  const starts: BlockStart[] = [];
  let open: Open | undefined;
  let previousBlank = true;
  let offset = 0;
  let line = 1;
  let next = source.indexOf("\n");
  let text = next < 0 ? source : source.slice(0, next);
  if (FRONT_MATTER_FENCE.test(text)) open = { kind: "front-matter" };
  while (true) {
    const end = next < 0 ? source.length : next;
    const nextStart = end + 1;
    const nextEnd = nextStart > source.length ? -1 : source.indexOf("\n", nextStart);
    const following = nextStart > source.length ? undefined : source.slice(nextStart, nextEnd < 0 ? source.length : nextEnd);
    if (open !== undefined) {
      if (line > 1 && closes(open, text)) open = undefined;
      previousBlank = open === undefined && BLANK.test(text);
    } else {
      if (line > 1 && ATX.test(text)) starts.push({ offset, line, headingLines: 1 });
      else if (
        line > 1 &&
        previousBlank &&
        !BLANK.test(text) &&
        text[0] !== " " &&
        text[0] !== "\t" &&
        following !== undefined &&
        SETEXT_UNDERLINE.test(following)
      ) {
        starts.push({ offset, line, headingLines: 2 });
      }
      open = fenceOpened(text) ?? htmlOpened(text);
      previousBlank = BLANK.test(text);
    }
    if (following === undefined) break;
    offset = nextStart;
    line++;
    next = nextEnd;
    text = following;
  }
  return starts;
}
