/**
 * Hostile documents for every reader format: the inputs that once blocked
 * a reader for minutes or blew its heap (deep nesting, decompression
 * bombs, random bytes under a text name), built at their full size, and
 * per-format generators `(rng) => { path, bytes }` that mix those cases
 * with random mutations, for fuzz and soak suites.
 */
import { docxNested, docxOfXml, pdfContentBomb, pdfOfObjects, pdfStream, zlibRepeated } from "./hostile-archives.js";
import { buildDocx } from "./docx-fixture.js";
import { buildPdf } from "./pdf-fixture.js";
import { seededRandom } from "../fixtures/secrets/adversarial-input.js";

/** A source of numbers in [0, 1), like `Math.random`. */
export type Rng = () => number;

/** One hostile file: where it claims to live, and its bytes. */
export interface HostileDocument {
  path: string;
  bytes: Uint8Array;
}

/**
 * Makes one hostile document of a format from random draws, sized for
 * `maxBytes` (default no limit): each case draws its sizes within the
 * limit, so a capped run does not build megabytes only to throw them away
 * (a mutation may still pass the limit by a little: callers cut). Without a
 * limit the draws are those of every earlier run, so a seed replays.
 */
export type HostileGenerator = (rng: Rng, maxBytes?: number) => HostileDocument;

/** The formats there are generators for, one per reader. */
export const HOSTILE_FORMATS = [
  "markdown", "html", "pdf", "docx", "csv", "jsonl", "json", "yaml", "toml", "subtitle", "text", "code",
] as const;
export type HostileFormat = (typeof HOSTILE_FORMATS)[number];

/** A small seeded generator (mulberry32): the same seed, the same documents. */
export const seededRng: (seed: number) => Rng = seededRandom;

const KIB = 1024;
const MIB = 1024 * KIB;
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const int = (rng: Rng, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1));
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
/** A count from 1 to `max`, and at most `cap / unit` (how many units of `unit` bytes fit the byte limit `cap`). */
const upTo = (rng: Rng, max: number, cap: number, unit = 1): number => int(rng, 1, Math.max(1, Math.min(max, Math.floor(cap / unit))));

/** `bytes` random bytes, none of them NUL (a NUL alone would mark the file binary). */
export function randomBytes(bytes: number, rng: Rng): Uint8Array {
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) out[i] = 1 + Math.floor(rng() * 255);
  return out;
}

/** 100,000 `>` then 50,000 `- ` on one line (200 KB). */
export function markdownQuoteListBomb(quotes = 100_000, items = 50_000): Uint8Array {
  return utf8(`${">".repeat(quotes)}${"- ".repeat(items)}x\n`);
}

/** List items each indented one level deeper than the last, about `bytes` long. */
export function markdownNestedList(bytes: number, marker = "- "): Uint8Array {
  const lines: string[] = [];
  let size = 0;
  for (let depth = 0; size < bytes; depth++) {
    const line = `${" ".repeat(depth * marker.length)}${marker}item ${depth}\n`;
    lines.push(line);
    size += line.length;
  }
  return utf8(lines.join(""));
}

/** `count` nested opening tags (2.2 MB of `<div>` is 440,000 of them). */
export function htmlNested(count: number, tag = "div"): Uint8Array {
  return utf8(`<!doctype html><html><body>${`<${tag}>`.repeat(count)}text`);
}

/** JSON arrays (or objects) nested `depth` deep. */
export function jsonNested(depth: number, kind: "array" | "object" = "array"): Uint8Array {
  return utf8(kind === "array" ? `${"[".repeat(depth)}1${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`);
}

/** YAML nested `depth` deep: flow sequences, or block mappings indented one space per level. */
export function yamlNested(depth: number, style: "flow" | "block" = "flow"): Uint8Array {
  if (style === "flow") return utf8(`a: ${"[".repeat(depth)}1${"]".repeat(depth)}\n`);
  return utf8(Array.from({ length: depth }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n") + " 1\n");
}

/** TOML nested `depth` deep: inline arrays or inline tables. */
export function tomlNested(depth: number, style: "array" | "table" = "array"): Uint8Array {
  if (style === "array") return utf8(`a = ${"[".repeat(depth)}1${"]".repeat(depth)}\n`);
  return utf8(`a = ${"{ b = ".repeat(depth)}1${" }".repeat(depth)}\n`);
}

/** Random damage: flipped bytes, a truncation, a pasted run of noise or a duplicated slice. */
export function mutate(bytes: Uint8Array, rng: Rng): Uint8Array {
  const out = Uint8Array.from(bytes);
  const kind = int(rng, 0, 4);
  if (kind === 0) return out;
  if (kind === 1) {
    for (let i = int(rng, 1, 32); i > 0 && out.length > 0; i--) out[int(rng, 0, out.length - 1)] = int(rng, 1, 255);
    return out;
  }
  if (kind === 2) return out.subarray(0, int(rng, 0, out.length));
  const at = int(rng, 0, out.length);
  const insert = kind === 3 ? randomBytes(int(rng, 1, 4 * KIB), rng) : out.subarray(at, at + int(rng, 1, 64 * KIB));
  const joined = new Uint8Array(out.length + insert.length);
  joined.set(out.subarray(0, at));
  joined.set(insert, at);
  joined.set(out.subarray(at), at + insert.length);
  return joined;
}

/** Text built from random picks of `pieces`, about `bytes` long. */
function soup(rng: Rng, pieces: readonly string[], bytes: number): Uint8Array {
  const parts: string[] = [];
  for (let size = 0; size < bytes; ) {
    const piece = pick(rng, pieces);
    parts.push(piece);
    size += piece.length;
  }
  return utf8(parts.join(""));
}

/** One kind of hostile content, its sizes drawn within `cap` bytes. */
type Case = (rng: Rng, cap: number) => Uint8Array;

/** A generator drawing one of `cases`, then mutating the result (except binary containers, mutated less often). */
function generator(extensions: readonly string[], cases: readonly Case[]): HostileGenerator {
  return (rng, maxBytes = Number.POSITIVE_INFINITY) => {
    const bytes = pick(rng, cases)(rng, maxBytes);
    return { path: `hostile/doc-${int(rng, 0, 1e9)}${pick(rng, extensions)}`, bytes: mutate(bytes, rng) };
  };
}

const noise: Case = (rng, cap) => randomBytes(upTo(rng, 2 * MIB, cap), rng);

const MARKDOWN: Case[] = [
  (rng, cap) => markdownQuoteListBomb(upTo(rng, 100_000, cap, 2), upTo(rng, 50_000, cap, 4)),
  (rng, cap) => markdownNestedList(upTo(rng, 40 * KIB, cap), pick(rng, ["- ", "* ", "1. ", "> - "])),
  (rng, cap) => soup(rng, ["> ", "- ", "* ", "1. ", "  ", "\n", "[", "](", "*", "_", "`", "<", "|", "# ", "text "], upTo(rng, 400 * KIB, cap)),
  noise,
];

const HTML: Case[] = [
  // The longest tag, `<table><tr><td>`, is 15 bytes.
  (rng, cap) => htmlNested(upTo(rng, 440_000, cap, 15), pick(rng, ["div", "span", "ul><li", "table><tr><td", "p", "b"])),
  (rng, cap) => soup(rng, ["<div>", "</div>", "<p>", "<li>", "<table>", "<td>", "text ", "<!--", "-->", "<script>", "&amp;"], upTo(rng, 2 * MIB, cap)),
  noise,
];

const pdfCases: Case[] = [
  (rng) => pdfContentBomb(int(rng, 1, 1024) * MIB, { asImage: rng() < 0.2, filters: int(rng, 1, 3) }),
  (rng) => pdfOfObjects(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /Contents [4 0 R 4 0 R 4 0 R] >>", pdfStream("/Filter /FlateDecode", zlibRepeated("q ", int(rng, 1, 200) * MIB))]),
  (rng) => buildPdf([[{ text: "Hostile page ".repeat(int(rng, 1, 100)) }]]),
  noise,
];

const docxCases: Case[] = [
  (rng) => docxOfXml(int(rng, 1, 300) * MIB, rng() < 0.5 ? { declaredSize: 1024 } : {}),
  (rng) => docxNested(int(rng, 1, 20_000)),
  (rng) => buildDocx([{ kind: "p", text: "Hostile ".repeat(int(rng, 1, 1000)) }]),
  noise,
];

/** Generators of hostile documents, one per reader format. */
export const hostileGenerators: Readonly<Record<HostileFormat, HostileGenerator>> = {
  markdown: generator([".md", ".markdown"], MARKDOWN),
  html: generator([".html", ".htm"], HTML),
  pdf: generator([".pdf"], pdfCases),
  docx: generator([".docx"], docxCases),
  csv: generator([".csv", ".tsv"], [
    (rng, cap) => soup(rng, ['"', ",", "\t", "\n", '""', "a", ";", "|", "\r\n"], upTo(rng, 2 * MIB, cap)),
    (rng, cap) => utf8(`a,b\n"${"x\n".repeat(upTo(rng, 500_000, cap, 2))}`),
    (rng, cap) => utf8(`${",".repeat(upTo(rng, 1_000_000, cap))}\n`),
    noise,
  ]),
  jsonl: generator([".jsonl", ".ndjson"], [
    (rng, cap) => {
      // An object level is six bytes (`{"a":` and `}`): the depth fits one line in the limit, the line count the rest.
      const line = new TextDecoder().decode(jsonNested(upTo(rng, 10_000, cap, 6), pick(rng, ["array", "object"] as const)));
      return utf8(`${line}\n`.repeat(upTo(rng, 50, cap, line.length + 1)));
    },
    (rng, cap) => soup(rng, ["{", "}", "[", "]", '"a":', "1,", "\n", '"'], upTo(rng, MIB, cap)),
    noise,
  ]),
  json: generator([".json"], [
    (rng, cap) => jsonNested(upTo(rng, 100_000, cap, 6), pick(rng, ["array", "object"] as const)),
    (rng, cap) => soup(rng, ["{", "}", "[", "]", '"a":', "1,", "//", "/*", "*/", '"'], upTo(rng, MIB, cap)),
    noise,
  ]),
  yaml: generator([".yaml", ".yml"], [
    (rng, cap) => yamlNested(upTo(rng, 10_000, cap, 2), "flow"),
    // Block nesting costs a space of indentation per level: 1,500 levels is already 1 MB (d levels about d²/2 bytes).
    (rng, cap) => yamlNested(upTo(rng, 1_500, Math.sqrt(2 * cap)), "block"),
    (rng, cap) => soup(rng, ["- ", "a: ", "&x ", "*x ", "[", "]", "{", "}", "\n", "  ", "---\n", "? "], upTo(rng, MIB, cap)),
    noise,
  ]),
  toml: generator([".toml"], [
    // An inline table level is eight bytes (`{ b = ` and ` }`).
    (rng, cap) => tomlNested(upTo(rng, 10_000, cap, 8), pick(rng, ["array", "table"] as const)),
    (rng, cap) => soup(rng, ["[a]\n", "[[b]]\n", "x = ", "[", "]", "{", "}", '"""', "'''", "\n", "1,"], upTo(rng, MIB, cap)),
    noise,
  ]),
  subtitle: generator([".vtt", ".srt"], [
    (rng, cap) => utf8(`WEBVTT\n\n${"00:00:01.000 --> 00:00:02.000\nline\n\n".repeat(upTo(rng, 60_000, cap, 36))}`),
    (rng, cap) => soup(rng, ["-->", "00:00:01.000", " ", "\n", "<v A>", "1\n", "WEBVTT\n", ","], upTo(rng, MIB, cap)),
    noise,
  ]),
  text: generator([".txt", ".rst", ".log", ""], [
    (rng, cap) => soup(rng, ["word ", ". ", "\n", "- ", "====\n", "    ", "|", "a.b.", "\t"], upTo(rng, 2 * MIB, cap)),
    (rng, cap) => utf8("x".repeat(upTo(rng, 2 * MIB, cap))),
    noise,
  ]),
  code: generator([".ts", ".py", ".js", ".go", ".rs", ".c"], [
    (rng, cap) => utf8(`x = ${"(".repeat(upTo(rng, 100_000, cap, 2))}1${")".repeat(upTo(rng, 100_000, cap, 2))}\n`),
    (rng, cap) => utf8(`${"{".repeat(upTo(rng, 100_000, cap))}`),
    (rng, cap) => soup(rng, ["function f(", "){", "}", "class A {", "def f():\n", "    ", "\n", "/*", "*/", "'", '"', "`"], upTo(rng, MIB, cap)),
    noise,
  ]),
};
