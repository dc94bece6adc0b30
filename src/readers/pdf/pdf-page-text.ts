/**
 * Text of one PDF page from its positioned text runs: runs are joined into
 * lines (a run ending a line, or one set at another height, ends it), and
 * lines into paragraphs (a wider gap, a change of type size, or a jump
 * back up the page starts a new one). Content-stream order is kept, which
 * is reading order for nearly every producer.
 */

/** A positioned run of text, as pdf.js reports it. */
export interface PdfTextRun {
  str: string;
  /** Text matrix `[a, b, c, d, x, y]`, y growing up the page. */
  transform: readonly number[];
  width: number;
  height: number;
  hasEOL: boolean;
}

interface Line {
  text: string;
  y: number;
  size: number;
  endX: number;
  ended: boolean;
}

/** Lines further apart than this many type sizes belong to different paragraphs. */
const PARAGRAPH_GAP = 1.6;
/** Type sizes differing by more than this share start a new paragraph (a heading, a footnote). */
const SIZE_CHANGE = 0.15;
/** A horizontal gap wider than this share of the type size is a word space. */
const WORD_GAP = 0.15;

function sizeOf(run: PdfTextRun): number {
  const [, , c = 0, d = 0] = run.transform;
  return Math.hypot(c, d) || run.height || 1;
}

function appendRun(line: Line, run: PdfTextRun, x: number, size: number): void {
  const gap = x - line.endX;
  const spaced = line.text.length === 0 || /\s$/.test(line.text) || /^\s/.test(run.str);
  if (!spaced && gap > size * WORD_GAP) line.text += " ";
  line.text += run.str;
  line.endX = x + run.width;
  line.size = Math.max(line.size, size);
}

/** The page's lines, in order, with their baseline height and type size. */
function pageLines(runs: readonly PdfTextRun[]): Line[] {
  const lines: Line[] = [];
  for (const run of runs) {
    let line = lines.at(-1);
    // An empty run only marks the end of a line (it sits where the next one starts).
    if (run.str.length === 0) {
      if (run.hasEOL && line !== undefined) line.ended = true;
      continue;
    }
    const x = run.transform[4] ?? 0;
    const y = run.transform[5] ?? 0;
    const size = sizeOf(run);
    const moved = line !== undefined && Math.abs(line.y - y) > Math.max(line.size, size) / 2;
    if (line === undefined || line.ended || moved) {
      line = { text: "", y, size, endX: x, ended: false };
      lines.push(line);
    }
    appendRun(line, run, x, size);
    if (run.hasEOL) line.ended = true;
  }
  return lines.map((l) => ({ ...l, text: l.text.replace(/\s+/g, " ").trim() }));
}

function startsParagraph(prev: Line, line: Line): boolean {
  const larger = Math.max(prev.size, line.size);
  if (Math.abs(prev.size - line.size) > larger * SIZE_CHANGE) return true;
  const drop = prev.y - line.y;
  return drop <= 0 || drop > larger * PARAGRAPH_GAP;
}

/** The page's paragraphs, each a list of lines; lines of only spaces are dropped. */
export function pageParagraphs(runs: readonly PdfTextRun[]): string[][] {
  const paragraphs: string[][] = [];
  let prev: Line | undefined;
  for (const line of pageLines(runs)) {
    if (line.text.length === 0) continue;
    const current = paragraphs.at(-1);
    if (prev === undefined || current === undefined || startsParagraph(prev, line)) paragraphs.push([line.text]);
    else current.push(line.text);
    prev = line;
  }
  return paragraphs;
}

/**
 * A paragraph's lines as running text: a word hyphenated at a line end
 * ("exam-" / "ple") is joined again when the next line continues in lower
 * case; other lines are joined by a space.
 */
export function joinLines(lines: readonly string[]): string {
  let text = "";
  for (const line of lines) {
    if (text.length === 0) text = line;
    else if (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(line)) text = text.slice(0, -1) + line;
    else text += ` ${line}`;
  }
  return text;
}

/** Running headers and footers are this short; longer repeated text is content. */
const MAX_RUNNING_CHARS = 120;
/** Pages an edge text must recur on to count as a running header or footer. */
const MIN_RUNNING_PAGES = 3;

/** An edge text with its numbers blanked, so "Page 3 of 9" recurs as "page # of #". */
export function runningKey(lines: readonly string[]): string {
  return joinLines(lines).replace(/\d+/g, "#").toLowerCase();
}

/**
 * Keys ({@link runningKey}) of running headers and footers: short first or
 * last paragraphs that recur on at least three pages and a third of all
 * pages. A bare page number always counts.
 */
export function runningTexts(pages: readonly (readonly string[][])[]): Set<string> {
  const counts = new Map<string, number>();
  for (const paragraphs of pages) {
    const edges = new Set([paragraphs[0], paragraphs.at(-1)].filter((p) => p !== undefined).map(runningKey));
    for (const key of edges) if (key.length <= MAX_RUNNING_CHARS) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const floor = Math.max(MIN_RUNNING_PAGES, pages.length / 3);
  const keys = [...counts].filter(([, n]) => n >= floor).map(([key]) => key);
  return new Set(["#", ...keys]);
}
