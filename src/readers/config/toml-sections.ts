/**
 * The sections of a TOML file located in its source: the root key/values
 * before the first table header, then each `[table]` or `[[array]]` header
 * with the lines under it. Multi-line strings and arrays are followed, so
 * a line inside them is never taken for a header. Assumes valid TOML (the
 * caller has parsed it).
 */

/** One section: `[start, end)` in the source and its header, if any. */
export interface TomlSection {
  start: number;
  end: number;
  /** The header's dotted key, unquoted: `[a."b.c"]` → `["a", "b.c"]`. */
  keys?: string[];
  /** Whether the header is an array of tables (`[[…]]`). */
  array?: boolean;
}

interface ScanState {
  /** Delimiter of the multi-line string open at the end of the last line. */
  open?: string;
  /** Brackets and braces open at the end of the last line. */
  depth: number;
}

/** Scans one line outside any header, updating what is open at its end. */
function scanLine(line: string, state: ScanState): void {
  let i = 0;
  while (i < line.length) {
    if (state.open !== undefined) {
      const close = line.indexOf(state.open, i);
      if (close < 0) return;
      state.open = undefined;
      i = close + 3;
      continue;
    }
    const ch = line[i] ?? "";
    if (ch === "#") return;
    if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
      state.open = line.slice(i, i + 3);
      i += 3;
    } else if (ch === '"' || ch === "'") {
      i = skipString(line, i);
    } else {
      if (ch === "[" || ch === "{") state.depth++;
      if (ch === "]" || ch === "}") state.depth--;
      i++;
    }
  }
}

/** Index after a single-line string opening at `start`. */
function skipString(line: string, start: number): number {
  const quote = line[start];
  let i = start + 1;
  while (i < line.length && line[i] !== quote) i += quote === '"' && line[i] === "\\" ? 2 : 1;
  return i + 1;
}

/** The dotted key of a header line, or undefined if the line is no header. */
function parseHeader(line: string): { keys: string[]; array: boolean } | undefined {
  const match = /^\s*(\[\[?)(.*?)(\]\]?)\s*(?:#.*)?$/.exec(line);
  if (match === null) return undefined;
  const array = match[1] === "[[";
  const keys: string[] = [];
  const body = match[2] ?? "";
  const part = /\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*(?:\.|$)/gy;
  for (let m = part.exec(body); m !== null && m[0].length > 0; m = part.exec(body)) {
    const raw = m[1] ?? "";
    keys.push(raw.startsWith('"') ? (JSON.parse(raw) as string) : raw.replace(/^'|'$/g, ""));
  }
  return keys.length > 0 ? { keys, array } : undefined;
}

/** The section without the blank lines around it. */
function trimmed(text: string, section: TomlSection): TomlSection {
  let { start, end } = section;
  while (start < end && /\s/.test(text[start] ?? "")) start++;
  while (end > start && /\s/.test(text[end - 1] ?? "")) end--;
  return { ...section, start, end };
}

/** The sections of valid TOML text, in order; a root with only comments or blanks is left out. */
export function tomlSections(text: string): TomlSection[] {
  const sections: TomlSection[] = [{ start: 0, end: text.length }];
  const state: ScanState = { depth: 0 };
  let offset = 0;
  for (const line of text.split("\n")) {
    const header = state.open === undefined && state.depth === 0 ? parseHeader(line) : undefined;
    if (header !== undefined) {
      const previous = sections.at(-1);
      if (previous !== undefined) previous.end = offset;
      sections.push({ start: offset, end: text.length, ...header });
    } else {
      scanLine(line, state);
    }
    offset += line.length + 1;
  }
  return sections
    .map((s) => trimmed(text, s))
    .filter((s) => s.keys !== undefined || /^\s*[^#\s]/m.test(text.slice(s.start, s.end)));
}
