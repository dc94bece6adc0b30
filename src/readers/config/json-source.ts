/**
 * JSON as configuration files write it: comments and trailing commas (as
 * in `tsconfig.json`) are blanked out so `JSON.parse` accepts the text, and
 * the top-level members are located in the source, since `JSON.parse`
 * reports no positions. Blanking keeps every offset and line in place.
 */

/** One member of the top-level object or array: `[start, end)` in the source. */
export interface JsonMember {
  start: number;
  end: number;
  /** Object members: the key as parsed; array elements: undefined. */
  key?: string;
}

/** Replaces the characters `[from, to)` with spaces, keeping line breaks. */
function blank(chars: string[], from: number, to: number): void {
  for (let i = from; i < to; i++) if (chars[i] !== "\n") chars[i] = " ";
}

/** The end of the string literal opening at `start` (index after its closing quote). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
  return Math.min(i + 1, text.length);
}

/** Drops a comma followed (past whitespace) by a closing bracket. */
function blankTrailingComma(chars: string[], text: string, comma: number): void {
  let j = comma + 1;
  while (j < text.length && /\s/.test(chars[j] ?? "")) j++;
  if (chars[j] === "}" || chars[j] === "]") chars[comma] = " ";
}

/** `//` and `/* *\/` comments and trailing commas replaced by spaces. */
export function blankJsonComments(text: string): string {
  if (!/\/[/*]|,\s*[}\]]/.test(text)) return text;
  const chars = text.split("");
  const commas: number[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') i = stringEnd(text, i);
    else if (ch === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      blank(chars, i, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
    } else if (ch === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      blank(chars, i, stop);
      i = stop;
    } else {
      if (ch === ",") commas.push(i);
      i++;
    }
  }
  for (const comma of commas) blankTrailingComma(chars, text, comma);
  return chars.join("");
}

function parseKey(text: string, start: number): string | undefined {
  if (text[start] !== '"') return undefined;
  try {
    const key: unknown = JSON.parse(text.slice(start, stringEnd(text, start)));
    return typeof key === "string" ? key : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The members of the top-level object (or elements of the top-level array)
 * of valid JSON text, in source order. Anything else yields no members.
 */
export function jsonMembers(text: string): JsonMember[] {
  const root = text.search(/\S/);
  if (text[root] !== "{" && text[root] !== "[") return [];
  const members: JsonMember[] = [];
  let depth = 0;
  let start = -1;
  let last = -1;
  const close = (): void => {
    if (start < 0) return;
    const key = text[root] === "{" ? parseKey(text, start) : undefined;
    members.push(key === undefined ? { start, end: last + 1 } : { start, end: last + 1, key });
    start = -1;
  };
  for (let i = root; i < text.length; i++) {
    const ch = text[i] ?? "";
    if (depth === 1 && start < 0 && !/[\s,}\]]/.test(ch)) start = i;
    if (ch === '"') {
      i = stringEnd(text, i) - 1;
    } else if (ch === "{" || ch === "[") {
      depth++;
    } else if (ch === "}" || ch === "]") {
      depth--;
      if (depth === 0) break;
    } else if (ch === "," && depth === 1) {
      close();
      continue;
    }
    if (!/\s/.test(ch)) last = i;
  }
  close();
  return members;
}
