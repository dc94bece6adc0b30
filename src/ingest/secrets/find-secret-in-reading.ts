/**
 * The credential scan on what a reader made of a file: every faction text
 * and every cell text. The bytes scan cannot see inside a Word document or
 * a compressed PDF, and a reader may turn `&#95;` or `\u005f` into `_`; what
 * is stored is what must be checked.
 */
import type { ReadFaction, ReadOutput } from "../../readers/reader.js";
import { scanDecodedText } from "./scan-for-secrets.js";
import { isTestFixturePath } from "./example-context.js";
import { credentialPathRule } from "./secret-paths.js";

/** Where a reading holds something credential-shaped. Never carries any of its text. */
export interface ReadingFinding {
  /** Rule id, as in `SecretFinding`. */
  rule: string;
  /** 1-based line of the file; 0 when the reading has no lines (PDF, Word) or for name rules. */
  line: number;
  /** 1-based PDF page, when the finding is in a paged document. */
  page?: number;
}

/** Where in a text a finding is: the 0-based line, and how many lines the text has. */
interface InText {
  line: number;
  lines: number;
}

/** A finding in texts scanned as one: which text, and where inside it. */
interface PartFinding {
  rule: string;
  part: number;
  inText: InText;
}

/** 1-based line of the joined text on which each part starts, then the line after the last part. */
function partStartLines(texts: readonly string[]): number[] {
  const starts: number[] = [];
  let line = 1;
  for (const text of texts) {
    starts.push(line);
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", nl + 1)) line++;
    line++; // the separator
  }
  starts.push(line);
  return starts;
}

/** Index of the last of ascending `starts` (but the final one) that is `<= line`. */
function partAt(starts: readonly number[], line: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= line) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Scans `texts` as one text, one line break between parts: one scan
 * instead of one per cell, and a key split over two parts (a PEM header in
 * one, its body in the next) is still seen.
 */
function scanParts(texts: readonly string[], exampleFile: boolean): PartFinding | undefined {
  if (texts.length === 0) return undefined;
  const finding = scanDecodedText(texts.join("\n"), exampleFile);
  if (finding === null) return undefined;
  const starts = partStartLines(texts);
  const part = partAt(starts, finding.line);
  return { rule: finding.rule, part, inText: { line: finding.line - starts[part]!, lines: starts[part + 1]! - starts[part]! } };
}

/**
 * The finding placed in the file: the faction's first line plus the line
 * inside its text when the text is the file's own lines (as many lines as
 * the faction spans), else the faction's first line; a PDF faction gives
 * its page instead; a faction with neither (Word) gives line 0.
 */
function placeIn(rule: string, faction: ReadFaction | undefined, inText: InText | undefined): ReadingFinding {
  const { lineStart, lineEnd, pdfPageStart } = faction?.location ?? {};
  if (lineStart !== undefined) {
    const ownLines = inText !== undefined && lineEnd !== undefined && lineEnd - lineStart + 1 === inText.lines;
    return { rule, line: lineStart + (ownLines ? inText.line : 0) };
  }
  return pdfPageStart !== undefined ? { rule, line: 0, page: pdfPageStart } : { rule, line: 0 };
}

/**
 * Runs the credential scan (name rules, then every content rule on each
 * text as it stands and with HTML references and JSON/JS escapes decoded)
 * on a reading: the faction texts first, then the cell texts. Returns
 * where the first finding is, or undefined. Pure: safe to call from a
 * worker thread. `path` is the normalised project-relative path.
 */
export function findSecretInReading(path: string, output: ReadOutput): ReadingFinding | undefined {
  const nameRule = credentialPathRule(path);
  if (nameRule !== null) return { rule: nameRule, line: 0 };
  const { factions, cells } = output;
  const exampleFile = isTestFixturePath(path);
  const inFaction = scanParts(factions.map((f) => f.text), exampleFile);
  if (inFaction) return placeIn(inFaction.rule, factions[inFaction.part], inFaction.inText);
  const inCell = scanParts(cells.map((c) => c.text), exampleFile);
  if (inCell) return placeIn(inCell.rule, factions[cells[inCell.part]?.faction ?? -1], undefined);
  return undefined;
}
