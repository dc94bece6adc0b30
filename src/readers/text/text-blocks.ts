/**
 * Block structure of plain text: paragraphs separated by blank lines, and the
 * few shapes plain-text documents use for structure (underlined and
 * all-caps headings, numbered section lines, bulleted lists, diagrams).
 */

export type TextBlockKind = "heading" | "paragraph" | "columns" | "list" | "preformatted";

/** One block of a plain-text file; lines are 1-based and inclusive. */
export interface TextBlock {
  kind: TextBlockKind;
  lineStart: number;
  lineEnd: number;
  /** The block's lines as they stand in the file. */
  lines: string[];
  /** Headings: the title line, trimmed. */
  title?: string;
  /** Headings: how the heading is marked (levels are assigned per style). */
  style?: string;
  /** Lists: each item's text without its marker. */
  items?: string[];
}

/** A run of non-blank lines starting at 1-based `lineStart`. */
export interface LineRun {
  lineStart: number;
  lines: string[];
}

const RULE = /^\s{0,3}([=\-~^*#+_])\1{2,}\s*$/;
const MARKER = /^\s*(?:[-*+\u2022o]|\d{1,3}[.)]|\(\d{1,3}\)|[a-z]\)|\([a-z]\))\s+(?=\S)/;
const NUMBERED = /^(\d{1,2}(?:\.\d{1,2})*)\.?\s+\p{Lu}/u;
const SENTENCE_END = /[.,;:!?]$/;
/** Three or more spaces between words: text laid out in columns. */
const COLUMN_GAP = /\S {3,}\S/;
/** Below this share of letters a block is taken for a diagram or table. */
const MIN_LETTER_SHARE = 0.4;
const SHARE_SAMPLE_CHARS = 10_000;

/** Splits text into runs of non-blank lines. */
export function lineRuns(text: string): LineRun[] {
  const runs: LineRun[] = [];
  let current: LineRun | undefined;
  text.split("\n").forEach((line, i) => {
    if (line.trim().length === 0) {
      current = undefined;
    } else if (current === undefined) {
      current = { lineStart: i + 1, lines: [line] };
      runs.push(current);
    } else {
      current.lines.push(line);
    }
  });
  return runs;
}

function ruleChar(line: string | undefined): string | undefined {
  return line === undefined ? undefined : RULE.exec(line)?.[1];
}

function letterShare(text: string): number {
  let letters = 0;
  let visible = 0;
  for (const ch of text.slice(0, SHARE_SAMPLE_CHARS)) {
    if (/\s/.test(ch)) continue;
    visible++;
    if (/\p{L}/u.test(ch)) letters++;
  }
  return visible === 0 ? 1 : letters / visible;
}

/** The heading style of a lone line, if it reads as a heading. */
function loneHeadingStyle(line: string): string | undefined {
  const title = line.trim();
  if (title.length > 80 || SENTENCE_END.test(title)) return undefined;
  const numbered = NUMBERED.exec(line);
  if (numbered?.[1] !== undefined) return `num:${numbered[1].split(".").length}`;
  if (title.length > 60 || MARKER.test(line)) return undefined;
  const upper = title.match(/\p{Lu}/gu)?.length ?? 0;
  const visible = title.replace(/\s/g, "").length;
  const isCaps = upper >= 2 && upper / visible >= 0.5 && !/\p{Ll}/u.test(title);
  return isCaps ? "caps" : undefined;
}

function listItems(lines: readonly string[]): string[] {
  const items: string[][] = [];
  for (const line of lines) {
    const marker = MARKER.exec(line);
    const current = items.at(-1);
    if (marker === null && current !== undefined) current.push(line);
    else items.push([marker === null ? line : line.slice(marker[0].length)]);
  }
  return items.map((itemLines) => itemLines.join("\n"));
}

/** Classifies a run that holds no underlined heading. */
function classify(lines: string[], lineStart: number): TextBlock[] {
  if (lines.every((line) => ruleChar(line) !== undefined)) return [];
  const base = { lineStart, lineEnd: lineStart + lines.length - 1, lines };
  const only = lines.length === 1 ? lines[0] : undefined;
  const style = only === undefined ? undefined : loneHeadingStyle(only);
  if (only !== undefined && style !== undefined) {
    return [{ ...base, kind: "heading", title: only.trim(), style }];
  }
  const text = lines.join("\n");
  if (text.replace(/\s/g, "").length >= 20 && letterShare(text) < MIN_LETTER_SHARE) {
    return [{ ...base, kind: "preformatted" }];
  }
  if (MARKER.test(lines[0] ?? "")) return [{ ...base, kind: "list", items: listItems(lines) }];
  if (lines.every((line) => COLUMN_GAP.test(line.trim()))) return [{ ...base, kind: "columns" }];
  return [{ ...base, kind: "paragraph" }];
}

/**
 * Blocks of one run. A line followed by a rule line (`===`, `---`, `~~~` …),
 * optionally also preceded by the same rule, is a heading even inside a run;
 * the lines around it are classified on their own.
 */
export function runBlocks(run: LineRun): TextBlock[] {
  const { lines, lineStart } = run;
  const out: TextBlock[] = [];
  let from = 0;
  for (let i = 1; i < lines.length; i++) {
    const rule = ruleChar(lines[i]);
    const title = lines[i - 1] ?? "";
    if (rule === undefined || ruleChar(title) !== undefined || title.trim().length > 120) continue;
    const over = i >= 2 && i - 2 >= from && ruleChar(lines[i - 2]) === rule;
    const start = over ? i - 2 : i - 1;
    if (start > from) out.push(...classify(lines.slice(from, start), lineStart + from));
    out.push({
      kind: "heading",
      lineStart: lineStart + start,
      lineEnd: lineStart + i,
      lines: lines.slice(start, i + 1),
      title: title.trim(),
      style: `${over ? "over" : "under"}:${rule}`,
    });
    from = i + 1;
  }
  if (from < lines.length) out.push(...classify(lines.slice(from), lineStart + from));
  return out;
}

/**
 * All blocks of a plain-text document, in order. Lists whose items are
 * separated by blank lines (common in plain text) become one list block.
 */
export function textBlocks(text: string): TextBlock[] {
  const fileLines = text.split("\n");
  const out: TextBlock[] = [];
  for (const block of lineRuns(text).flatMap(runBlocks)) {
    const prev = out.at(-1);
    if (prev?.kind === "list" && block.kind === "list") {
      prev.lines = fileLines.slice(prev.lineStart - 1, block.lineEnd);
      prev.lineEnd = block.lineEnd;
      prev.items = [...(prev.items ?? []), ...(block.items ?? [])];
    } else {
      out.push(block);
    }
  }
  return out;
}
