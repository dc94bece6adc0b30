/**
 * Linear pre-scans of how deep JSON and TOML nest, made before the parser
 * sees the text. Parsers recurse (or build paths) per level: a TOML header
 * of 50,000 dotted keys took a minute, and nesting past a parser's stack
 * ends in an error from deep inside it rather than a clear refusal.
 */
import { nestsTooDeep } from "../common/refusals.js";

/**
 * Nesting allowed in configuration and data files. Hand-written files
 * nest under 10 levels, generated ones (schemas, API dumps) rarely past
 * 30; 128 leaves room for any of them, far below where parsers struggle.
 */
export const MAX_CONFIG_NESTING = 128;

/** Index after a string opening at `start` with `quote`, honouring backslash escapes when `escapes`. */
function skipQuoted(text: string, start: number, quote: string, escapes: boolean): number {
  let i = start + 1;
  while (i < text.length && text[i] !== quote && text[i] !== "\n") i += escapes && text[i] === "\\" ? 2 : 1;
  return i + 1;
}

/**
 * Whether JSON text (comments already blanked) opens no more than `limit`
 * arrays and objects inside one another. Brackets inside strings do not
 * count.
 */
export function jsonNestsWithin(text: string, limit: number = MAX_CONFIG_NESTING): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') i = skipQuoted(text, i, '"', true) - 1;
    else if (ch === "[" || ch === "{") {
      if (++depth > limit) return false;
    } else if ((ch === "]" || ch === "}") && depth > 0) depth--;
  }
  return true;
}

/** Throws "document nests deeper than N levels" when JSON text nests past `limit` (see {@link jsonNestsWithin}). */
export function checkJsonNesting(text: string, limit: number = MAX_CONFIG_NESTING): void {
  if (!jsonNestsWithin(text, limit)) throw nestsTooDeep(limit);
}

/** What a TOML scan carries from line to line. */
interface TomlScan {
  /** Levels of the current table: the dotted keys of the last header. */
  table: number;
  /** Arrays and inline tables open at the end of the last line. */
  brackets: number;
  /** Delimiter of a multi-line string open at the end of the last line. */
  open?: string;
}

/** Dots outside quotes in `text[from, to)`: the levels a dotted key adds beyond its first. */
function keyDots(text: string, from: number, to: number): number {
  let dots = 0;
  for (let i = from; i < to; i++) {
    const ch = text[i];
    if (ch === '"' || ch === "'") i = skipQuoted(text, i, ch, ch === '"') - 1;
    else if (ch === ".") dots++;
  }
  return dots;
}

/** Scans a value from `from` to the line's end: strings skipped, brackets counted against the limit. */
function scanTomlValue(line: string, from: number, scan: TomlScan, levels: number, limit: number): void {
  let i = from;
  while (i < line.length) {
    if (scan.open !== undefined) {
      const close = line.indexOf(scan.open, i);
      if (close < 0) return;
      i = close + 3;
      scan.open = undefined;
      continue;
    }
    const ch = line[i] ?? "";
    if (ch === "#") return;
    if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
      scan.open = line.slice(i, i + 3);
      i += 3;
    } else if (ch === '"' || ch === "'") i = skipQuoted(line, i, ch, ch === '"');
    else {
      if ((ch === "[" || ch === "{") && levels + ++scan.brackets > limit) throw nestsTooDeep(limit);
      if ((ch === "]" || ch === "}") && scan.brackets > 0) scan.brackets--;
      i++;
    }
  }
}

/** Scans one line outside any open value: a header, or a key and its value. */
function scanTomlLine(line: string, scan: TomlScan, limit: number): void {
  const start = line.search(/\S/);
  if (start < 0 || line[start] === "#") return;
  if (line[start] === "[") {
    scan.table = 1 + keyDots(line, start, line.length);
    if (scan.table > limit) throw nestsTooDeep(limit);
    return;
  }
  let equals = start;
  while (equals < line.length && line[equals] !== "=") {
    const ch = line[equals];
    equals = ch === '"' || ch === "'" ? skipQuoted(line, equals, ch, ch === '"') : equals + 1;
  }
  const levels = scan.table + 1 + keyDots(line, start, equals);
  if (levels > limit) throw nestsTooDeep(limit);
  scanTomlValue(line, equals + 1, scan, levels, limit);
}

/**
 * Throws "document nests deeper than N levels" when TOML text nests more
 * than `limit` levels: a header's dotted keys, then a key's, then the
 * arrays and inline tables of its value.
 */
export function checkTomlNesting(text: string, limit: number = MAX_CONFIG_NESTING): void {
  const scan: TomlScan = { table: 0, brackets: 0 };
  forEachLine(text, (line) => {
    if (scan.open !== undefined || scan.brackets > 0) scanTomlValue(line, 0, scan, scan.table + 1, limit);
    else scanTomlLine(line, scan, limit);
  });
}

/** Calls `visit` with each line of `text` in order (without its newline), the last one too when it is empty. */
export function forEachLine(text: string, visit: (line: string) => void): void {
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    visit(text.slice(start, end));
    start = end + 1;
  }
}
