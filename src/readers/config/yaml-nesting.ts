/**
 * A linear pre-scan of how deep YAML nests, made before the parser sees
 * the text: the parser recurses per level, and 1 MB of `[` kept it busy
 * for 14 seconds, while 2,000 compact `- ` on one line ran V8 out of
 * memory compiling a regular expression, which no `catch` survives.
 *
 * Block levels follow indentation (each deeper line opens at most one) and
 * compact indicators (`- - x`, `? - x`); flow levels are `[` and `{` where
 * a value starts or inside another flow collection. Quoted scalars, block
 * scalars (`|`, `>`) and comments are skipped, so brackets in text never
 * count.
 */
import { forEachLine, MAX_CONFIG_NESTING } from "./config-nesting.js";
import { nestsTooDeep } from "../common/refusals.js";

/** What the scan carries from line to line. */
interface YamlScan {
  /** Indentation of each open block level. */
  indents: number[];
  /** Flow collections open. */
  flow: number;
  /** The quote of a quoted scalar still open at the end of the last line. */
  quote?: string;
  /** Inside a block scalar: lines indented deeper than this belong to it; -1 outside one. */
  scalarIndent: number;
  /** Indentation of the line being scanned. */
  lineIndent: number;
  limit: number;
}

function check(scan: YamlScan): void {
  if (scan.indents.length + scan.flow > scan.limit) throw nestsTooDeep(scan.limit);
}

/** Index after the closing quote of the open quoted scalar, or the line's end (still open). */
function closeQuote(line: string, from: number, scan: YamlScan): number {
  for (let i = from; i < line.length; i++) {
    if (scan.quote === '"' && line[i] === "\\") i++;
    else if (line[i] === scan.quote) {
      if (scan.quote === "'" && line[i + 1] === "'") i++;
      else {
        scan.quote = undefined;
        return i + 1;
      }
    }
  }
  return line.length;
}

/** Whether `:` at `i` is a mapping indicator: followed by a space, the line's end, or (in flow) a flow indicator. */
function isValueIndicator(line: string, i: number, inFlow: boolean): boolean {
  const next = line[i + 1];
  return next === undefined || next === " " || next === "\t" || (inFlow && next !== undefined && ",[]{}".includes(next));
}

/** Index after the anchors and tags (`&a`, `!t`) at `at`, which come before the value they mark. */
function skipProperties(line: string, at: number): number {
  let i = at;
  while (line[i] === "&" || line[i] === "!") {
    while (i < line.length && line[i] !== " " && line[i] !== "\t") i++;
    while (line[i] === " " || line[i] === "\t") i++;
  }
  return i;
}

/** Scans a line's content from `from`: quotes, flow brackets, indicators and comments. */
function scanContent(line: string, from: number, scan: YamlScan): void {
  let i = from;
  let valueStart = true;
  while (i < line.length) {
    if (scan.quote !== undefined) {
      i = closeQuote(line, i, scan);
      valueStart = false;
      continue;
    }
    const ch = line[i] ?? "";
    if (ch === " " || ch === "\t") i++;
    else if (ch === "#" && (i === 0 || line[i - 1] === " " || line[i - 1] === "\t")) return;
    else if (valueStart && (ch === "&" || ch === "!")) i = skipProperties(line, i);
    else if (valueStart && (ch === '"' || ch === "'")) {
      scan.quote = ch;
      i++;
    } else if ((valueStart || scan.flow > 0) && (ch === "[" || ch === "{")) {
      scan.flow++;
      check(scan);
      i++;
    } else if (scan.flow > 0 && (ch === "]" || ch === "}" || ch === ",")) {
      if (ch !== ",") scan.flow--;
      valueStart = ch === ",";
      i++;
    } else if (valueStart && scan.flow === 0 && (ch === "|" || ch === ">")) {
      scan.scalarIndent = scan.lineIndent;
      return;
    } else if (ch === ":" && isValueIndicator(line, i, scan.flow > 0)) {
      valueStart = true;
      i++;
    } else {
      valueStart = false;
      i++;
    }
  }
}

/** Opens the block levels a line starts: its indentation, then compact `- `, `? ` and `: ` indicators. */
function openBlockLevels(line: string, indent: number, scan: YamlScan): number {
  while (scan.indents.length > 0 && (scan.indents.at(-1) ?? 0) >= indent) scan.indents.pop();
  scan.indents.push(indent);
  check(scan);
  let at = indent;
  while ((line[at] === "-" || line[at] === "?" || line[at] === ":") && (line[at + 1] === " " || at + 1 === line.length)) {
    at++;
    while (line[at] === " ") at++;
    scan.indents.push(at);
    check(scan);
  }
  return at;
}

/**
 * Throws "document nests deeper than N levels" when YAML text nests more
 * than `limit` levels, block and flow together.
 */
export function checkYamlNesting(text: string, limit: number = MAX_CONFIG_NESTING): void {
  const scan: YamlScan = { indents: [], flow: 0, scalarIndent: -1, lineIndent: 0, limit };
  forEachLine(text, (line) => {
    let indent = 0;
    while (line[indent] === " ") indent++;
    if (indent === line.length) return;
    if (scan.scalarIndent >= 0) {
      if (indent > scan.scalarIndent) return;
      scan.scalarIndent = -1;
    }
    scan.lineIndent = indent;
    const inValue = scan.quote !== undefined || scan.flow > 0;
    scanContent(line, inValue ? 0 : openBlockLevels(line, indent, scan), scan);
  });
}
