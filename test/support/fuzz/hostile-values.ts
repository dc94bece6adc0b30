/**
 * Hostile JSON pieces and the mutations that plant them: one field of a
 * valid value replaced (arbitrary JSON, a wrong type, a huge number, a lone
 * surrogate, a `__proto__` object, 10,000-deep nesting, an oversized string),
 * a `__proto__` key added, or the whole body replaced (arbitrary JSON,
 * broken JSON text, invalid UTF-8, past the body limit).
 */
import fc from "fast-check";

/** A hostile JSON piece: its text inside a body, and the value that text parses to (for transports that carry values). */
export interface Hostile {
  kind: string;
  text: string;
  value: () => unknown;
}

/** A hostile piece planted in a value; `jsonText` writes its text, `plainValue` its value. */
export class Splice {
  constructor(readonly hostile: Hostile) {}
}

/** How deep the nesting case goes. */
export const DEEP = 10_000;

const piece = (kind: string, text: string, value: () => unknown = () => JSON.parse(text)): Hostile => ({ kind, text, value });

/** Arrays or objects nested `depth` deep, built without recursion. */
export function nested(depth: number, shape: "array" | "object"): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = shape === "array" ? [v] : { a: v };
  return v;
}

const HUGE = ["1e400", "-1e400", "1e-400", "123456789012345678901234567890", "9007199254740993", "-9007199254740993", "1.7976931348623157e308", "-0", "4294967296", "1e21", "0.1e1", "2147483648"];
const SURROGATES = ["\ud800", "a\udfffb", "\udc00\ud800", "xxxxxxxxxx\ud83d", "\ud83d\ude00\ud800", "sha256:\udc00"];
const PROTO = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"__proto__":null}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"__proto__":{"isAdmin":true},"a":1}',
  '"__proto__"',
  '["__proto__"]',
];
const ODD_STRINGS = ["", " ", "\u0000", "%00", "../../etc/passwd", "<script>x</script>", "' OR 1=1 --", "NaN", "null", "\u202e\u0301", "😀".repeat(50), "a".repeat(2049), `sha256:${"0".repeat(64)}`, "*", "%", "\\", "\r\n"];

/** Every kind of hostile piece; `original` picks the wrong types (of another JSON type than it). */
export function hostileFor(original: unknown): fc.Arbitrary<Hostile> {
  const wrongTypes: unknown[] = [true, null, 0, -1, 1.5, "", "x", [], {}, [1, "a"], { a: 1 }].filter((v) => jsonType(v) !== jsonType(original));
  return fc.oneof(
    fc.jsonValue({ maxDepth: 3 }).map((v) => piece("arbitrary JSON", JSON.stringify(v) ?? "null", () => v)),
    fc.constantFrom(...wrongTypes).map((v) => piece("wrong type", JSON.stringify(v))),
    fc.constantFrom(...HUGE).map((t) => piece("huge number", t)),
    fc.constantFrom(...SURROGATES).map((s) => piece("lone surrogate", JSON.stringify(s), () => s)),
    fc.constantFrom(...PROTO).map((t) => piece("__proto__", t)),
    fc.constantFrom("array", "object" as const).map((shape) =>
      piece(`${DEEP}-deep ${shape}`, shape === "array" ? `${"[".repeat(DEEP)}1${"]".repeat(DEEP)}` : `${'{"a":'.repeat(DEEP)}1${"}".repeat(DEEP)}`, () => nested(DEEP, shape)),
    ),
    fc.constantFrom(70_000, 300_000).map((n) => piece(`oversized string (${n})`, JSON.stringify("x".repeat(n)), () => "x".repeat(n))),
    fc.constantFrom(...ODD_STRINGS).map((s) => piece("odd string", JSON.stringify(s), () => s)),
  );
}

function jsonType(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

type Path = Array<string | number>;

/** Paths of every node under the root (not the root), to depth 4, arrays' first three items. */
export function nodePaths(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  if (at.length >= 4 || value === null || typeof value !== "object") return out;
  const keys: Array<string | number> = Array.isArray(value) ? value.slice(0, 3).map((_, i) => i) : Object.keys(value);
  for (const k of keys) {
    out.push([...at, k]);
    nodePaths((value as Record<string | number, unknown>)[k], [...at, k], out);
  }
  return out;
}

/** Paths of the root and every object node under it (where a key can be added). */
function objectPaths(value: unknown): Path[] {
  const all: Path[] = [[], ...nodePaths(value)];
  return all.filter((p) => {
    const v = getAt(value, p);
    return v !== null && typeof v === "object" && !Array.isArray(v);
  });
}

function getAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], value);
}

/** A deep copy keeping own `__proto__` keys as keys. */
function copy(value: unknown): unknown {
  if (value === null || typeof value !== "object" || value instanceof Splice) return value;
  if (Array.isArray(value)) return value.map(copy);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) Object.defineProperty(out, k, { value: copy((value as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
  return out;
}

function setAt(value: unknown, path: Path, replacement: unknown): unknown {
  const out = copy(value);
  if (path.length === 0) return replacement;
  const parent = getAt(out, path.slice(0, -1)) as Record<string | number, unknown>;
  Object.defineProperty(parent, path[path.length - 1]!, { value: replacement, enumerable: true, writable: true, configurable: true });
  return out;
}

/** A value with one hostile change: one node replaced, or a `__proto__` (or odd) key added to one object. */
export interface Mutated {
  value: unknown;
  label: string;
}

/** One node of `valid` replaced by a hostile piece, or a hostile key added to one of its objects. */
export function mutateOne(valid: unknown): fc.Arbitrary<Mutated> {
  const paths = nodePaths(valid);
  const objects = objectPaths(valid);
  const replace = fc.constantFrom(...(paths.length > 0 ? paths : [[] as Path])).chain((path) =>
    hostileFor(path.length > 0 ? getAt(valid, path) : valid).map((h) => ({ value: setAt(valid, path, new Splice(h)), label: `${path.join(".") || "(root)"} ← ${h.kind}` })),
  );
  if (objects.length === 0) return replace;
  const addKey = fc
    .tuple(fc.constantFrom(...objects), fc.constantFrom("__proto__", "constructor", "prototype", "", "a".repeat(300)), hostileFor({}))
    .map(([path, key, h]) => ({ value: setAt(valid, [...path, key], new Splice(h)), label: `${[...path, key.slice(0, 20)].join(".")} added ← ${h.kind}` }));
  return fc.oneof({ arbitrary: replace, weight: 4 }, { arbitrary: addKey, weight: 1 });
}

/** JSON text of a value holding splices; own `__proto__` keys are written as keys. */
export function jsonText(value: unknown): string {
  if (value instanceof Splice) return value.hostile.text;
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(jsonText).join(",")}]`;
  return `{${Object.keys(value).map((k) => `${JSON.stringify(k)}:${jsonText((value as Record<string, unknown>)[k])}`).join(",")}}`;
}

/** The value a holder of splices stands for (what a transport carrying values would deliver). */
export function plainValue(value: unknown): unknown {
  if (value instanceof Splice) return value.hostile.value();
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(plainValue);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) Object.defineProperty(out, k, { value: plainValue((value as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
  return out;
}

/** A whole request body: text or raw bytes, made when sent (oversized ones are large). */
export interface WholeBody {
  label: string;
  make: () => string | Uint8Array;
}

const BROKEN = ["", "{", "}", "[", '{"a":}', "{'a':1}", "{a:1}", "NaN", "undefined", '{"a":1}garbage', "\ufeff{}", '{"a":1,}', "/*c*/{}", "nul", '"unterminated', '{"a":"\\x"}', '{"a":1}{"b":2}', "\u0000"];

/** The whole body replaced: arbitrary JSON, broken JSON, invalid UTF-8 around valid text, or past `limit` bytes. */
export function wholeBody(validText: string, limit: number): fc.Arbitrary<WholeBody> {
  const bytes = Buffer.from(validText, "utf8");
  return fc.oneof(
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => ({ label: "whole body ← arbitrary JSON", make: () => JSON.stringify(v) ?? "null" })) },
    { weight: 3, arbitrary: fc.constantFrom(...BROKEN).map((t) => ({ label: `whole body ← broken JSON ${JSON.stringify(t)}`, make: () => t })) },
    {
      weight: 3,
      arbitrary: fc.nat({ max: Math.max(0, validText.length - 1) }).map((n) => ({ label: `whole body ← valid text cut at ${n}`, make: () => validText.slice(0, n) })),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.nat({ max: bytes.length }), fc.constantFrom([0xed, 0xa0, 0x80], [0xff], [0xc0, 0xaf], [0xe2, 0x82])).map(([at, bad]) => ({
        label: `whole body ← invalid UTF-8 ${bad.map((b) => b.toString(16)).join(" ")} at byte ${at}`,
        make: () => Buffer.concat([bytes.subarray(0, at), Buffer.from(bad), bytes.subarray(at)]),
      })),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1, max: 4096 }).map((over) => ({
        label: `whole body ← ${limit + over} bytes (limit ${limit})`,
        make: () => `{"pad":"${"x".repeat(limit + over - 10)}"}`,
      })),
    },
  );
}
