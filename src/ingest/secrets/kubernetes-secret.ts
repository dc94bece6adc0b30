/**
 * Second stage of the Kubernetes rule: given a `kind: Secret` declaration,
 * decide whether the manifest around it actually carries `data` or
 * `stringData` values (as opposed to an empty Secret, or a Helm template
 * whose values are `{{ ... }}` expressions filled in at deploy time).
 */
import { lowerBound } from "../../text/sorted-offsets.js";
import type { ScanText } from "./secret-rule.js";

/** How far from the `kind` line a data entry may sit, in characters. */
const WINDOW = 64 * 1024;
/** Child lines of a `data:` block looked at before giving up. */
const MAX_CHILD_LINES = 20;
/** Longest prefix of a line the child pattern looks at. */
const MAX_LINE = 8 * 1024;

const DOCUMENT_SEPARATOR = /^---/gm;
const DATA_BLOCK_KEY = /^([ \t]{0,200})["']?(?:data|stringData)["']?[ \t]{0,20}:[ \t]{0,20}(?:#[^\n]{0,4000})?\r?$/gm;
const FLOW_MAPPING =
  /(?<![A-Za-z0-9_-])["']?(?:data|stringData)["']?\s{0,20}:\s{0,20}\{\s{0,200}["']?[\w.-]{1,253}["']?\s{0,20}:\s{0,20}([^,}\s][^,}\n]{0,4000})/g;
const CHILD_LINE = /^([ \t]{0,200})["']?[\w.-]{1,253}["']?[ \t]{0,20}:(?:[ \t]|$)/;
const BLOCK_SCALAR = /^[|>][+-]?[0-9]?$/;

interface ManifestIndex {
  /** Offsets of lines starting with `---`, ascending. */
  separators: number[];
  /** Offsets of `data`/`stringData` keys with at least one literal value, ascending. */
  dataKeys: number[];
}

function isRealValue(raw: string): boolean {
  let value = raw.trim();
  const comment = value.search(/\s#/);
  if (comment >= 0) value = value.slice(0, comment).trim();
  const quote = value[0];
  if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) value = value.slice(1, -1);
  else if (quote === '"' || quote === "'") value = value.slice(1);
  value = value.trim();
  if (value === "" || value === "~" || value === "null") return false;
  return !(value.startsWith("{{") || value.startsWith("${") || value.startsWith("<") || value.startsWith("$("));
}

function indentOf(line: string): number {
  let i = 0;
  while (i < line.length && (line[i] === " " || line[i] === "\t")) i++;
  return i;
}

/** The line starting at `start`, without its terminator, cut at `MAX_LINE`. */
function lineAt(text: string, start: number): { line: string; next: number } {
  const newline = text.indexOf("\n", start);
  const end = newline < 0 ? text.length : newline;
  const line = text.slice(start, Math.min(end, start + MAX_LINE)).replace(/\r$/, "");
  return { line, next: newline < 0 ? -1 : newline + 1 };
}

function blockHasData(text: string, firstChild: number, dataIndent: number): boolean {
  let position = firstChild;
  let seen = 0;
  while (position >= 0 && position < text.length && seen < MAX_CHILD_LINES) {
    const { line, next } = lineAt(text, position);
    position = next;
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    seen++;
    const indent = indentOf(line);
    if (indent <= dataIndent) return false;
    const child = CHILD_LINE.exec(line);
    if (!child) continue;
    const value = line.slice(child[0].length).trim();
    if (BLOCK_SCALAR.test(value)) {
      if (next < 0) return false;
      const following = lineAt(text, next).line;
      if (following.trim() !== "" && indentOf(following) > indent && isRealValue(following)) return true;
      continue;
    }
    if (isRealValue(value)) return true;
  }
  return false;
}

function buildIndex(text: string): ManifestIndex {
  const separators: number[] = [];
  DOCUMENT_SEPARATOR.lastIndex = 0;
  for (let m = DOCUMENT_SEPARATOR.exec(text); m; m = DOCUMENT_SEPARATOR.exec(text)) {
    separators.push(m.index);
  }
  const dataKeys: number[] = [];
  FLOW_MAPPING.lastIndex = 0;
  for (let m = FLOW_MAPPING.exec(text); m; m = FLOW_MAPPING.exec(text)) {
    if (isRealValue(m[1] ?? "")) dataKeys.push(m.index);
  }
  DATA_BLOCK_KEY.lastIndex = 0;
  for (let m = DATA_BLOCK_KEY.exec(text); m; m = DATA_BLOCK_KEY.exec(text)) {
    if (m[0].length === 0) DATA_BLOCK_KEY.lastIndex++;
    const newline = text.indexOf("\n", m.index + m[0].length);
    if (newline >= 0 && blockHasData(text, newline + 1, (m[1] ?? "").length)) dataKeys.push(m.index);
  }
  dataKeys.sort((a, b) => a - b);
  return { separators, dataKeys };
}

/**
 * Whether the YAML document (or JSON object) around `kindIndex`, the offset
 * of a `kind: Secret` declaration, has a `data` or `stringData` entry with a
 * literal value within 64 Ki characters and no `---` separator in between.
 * Builds one index of the whole text per scan, then answers in log time.
 */
export function hasKubernetesSecretData(scan: ScanText, kindIndex: number): boolean {
  const { separators, dataKeys } = scan.memo("kubernetes-manifest-index", buildIndex);
  const separatorAfter = lowerBound(separators, kindIndex + 1);
  const docStart = separatorAfter > 0 ? (separators[separatorAfter - 1] ?? 0) : 0;
  const docEnd = separators[separatorAfter] ?? scan.text.length;
  const from = Math.max(docStart, kindIndex - WINDOW);
  const to = Math.min(docEnd, kindIndex + WINDOW);
  const first = dataKeys[lowerBound(dataKeys, from)];
  return first !== undefined && first < to;
}
