/**
 * Import targets as path keys. A file answers to a few keys (its path with
 * and without extension, its folder when it is an index file, and every
 * shorter tail of those); an import names one key and whether only a full
 * key may match (a relative specifier) or any tail (`from a.b import c`,
 * `use crate::units`). Keys are lower-cased: matching ignores case.
 */
import { posix } from "node:path";
import { lookupTable } from "../lookup.js";

/**
 * How an import finds its file: `exact` (a full key), `suffix` (any file
 * whose key ends with it), `external` (a package outside the project), or
 * `unknown` (not resolvable by path).
 */
export type KeyMode = "exact" | "suffix" | "external" | "unknown";

/** Where one imported name comes from. */
export interface ImportKey {
  key: string | null;
  mode: KeyMode;
}

/** One key a file answers to; `full` keys name the whole path, tails do not. */
export interface FileKey {
  key: string;
  full: boolean;
}

const CODE_EXTENSION = /\.(d\.ts|[cm]?[jt]sx?|py|pyi|rb|rs|go|java|php|cs|sh|bash)$/i;
/** Files that stand for their folder, per language. */
const INDEX_NAMES = lookupTable<readonly string[]>({
  typescript: ["index"],
  tsx: ["index"],
  javascript: ["index"],
  python: ["__init__"],
  rust: ["mod"],
});
const ES_LANGUAGES = new Set(["typescript", "tsx", "javascript"]);
const EXTERNAL: ImportKey = { key: null, mode: "external" };
const UNKNOWN: ImportKey = { key: null, mode: "unknown" };

function stripCodeExtension(path: string): string {
  return path.replace(CODE_EXTENSION, "");
}

/** Normalises a joined path; undefined when it climbs out of the project. */
function clean(path: string): string | undefined {
  const normal = posix.normalize(path).replace(/^\.\/+/, "").replace(/\/+$/, "");
  if (normal === "." || normal === "") return "";
  return normal.startsWith("../") || normal === ".." ? undefined : normal;
}

function relativeKey(fromPath: string, specifier: string, keepExtension: boolean): ImportKey {
  const joined = clean(posix.join(posix.dirname(fromPath), specifier));
  if (joined === undefined) return EXTERNAL;
  const key = keepExtension ? joined : stripCodeExtension(joined);
  return { key: key.toLowerCase(), mode: "exact" };
}

function pythonKey(fromPath: string, source: string): ImportKey {
  const dots = /^\.*/.exec(source)?.[0].length ?? 0;
  const rest = source.slice(dots).split(".").filter(Boolean).join("/");
  if (dots === 0) return { key: rest.toLowerCase(), mode: "suffix" };
  const up = "../".repeat(dots - 1);
  return relativeKey(fromPath, `./${up}${rest}`, true);
}

function javaKey(source: string, name: string | undefined): ImportKey {
  const base = source.split(".").join("/");
  const classFile = name && /^[A-Z]/.test(name) ? `${base}/${name}` : base;
  return { key: classFile.toLowerCase(), mode: "suffix" };
}

function tailKey(path: string): ImportKey {
  const key = clean(path);
  return key ? { key: key.toLowerCase(), mode: "suffix" } : UNKNOWN;
}

function shellKey(fromPath: string, source: string): ImportKey {
  // `source "$(dirname "$0")/x.sh"` and `. "${BASH_SOURCE%/*}/x.sh"` name the script's own folder.
  const local = source.replace(/^("?\$\(dirname "?\$(0|\{?BASH_SOURCE(\[0\])?\}?)"?\)"?|"?\$\{BASH_SOURCE(\[0\])?%\/\*\}"?)\//, "./");
  if (local.includes("$")) return UNKNOWN;
  return local.startsWith(".") ? relativeKey(fromPath, local, true) : tailKey(local);
}

function isRelative(specifier: string): boolean {
  return specifier === "." || specifier === ".." || specifier.startsWith("./") || specifier.startsWith("../");
}

/**
 * The key an import (and one of its names) points at.
 * @param language language id of the importing file
 * @param fromPath project path of the importing file
 * @param source the import's module specifier as extracted
 * @param name the imported name, for languages that import a file per name (Java, PHP)
 */
export function importKeyFor(language: string, fromPath: string, source: string, name?: string): ImportKey {
  if (ES_LANGUAGES.has(language)) return isRelative(source) ? relativeKey(fromPath, source, false) : EXTERNAL;
  switch (language) {
    case "python":
      return pythonKey(fromPath, source);
    case "java":
      return javaKey(source, name);
    case "php":
      return tailKey([...source.split("\\"), ...(name ? [name] : [])].join("/"));
    case "rust": {
      const path = source.split("::");
      if (path[0] !== "crate") return path[0] === "super" || path[0] === "self" ? UNKNOWN : EXTERNAL;
      return path.length > 1 ? tailKey(path.slice(1).join("/")) : UNKNOWN;
    }
    case "c":
    case "cpp":
      return isRelative(source) ? relativeKey(fromPath, source, true) : tailKey(source);
    case "ruby":
      return isRelative(source) ? relativeKey(fromPath, source, false) : tailKey(stripCodeExtension(source));
    case "go": {
      // Standard-library paths have no domain; a module path's last segment is a project folder.
      const segments = source.split("/");
      return segments[0]?.includes(".") ? tailKey(segments.at(-1) ?? "") : EXTERNAL;
    }
    case "bash":
      return shellKey(fromPath, source);
    default:
      return UNKNOWN;
  }
}

/** Every tail of a key made of two or more segments: `a/b/c` → `b/c`, `c`. */
function tailsOf(key: string): string[] {
  const segments = key.split("/");
  return segments.slice(1).map((_, i) => segments.slice(i + 1).join("/"));
}

/** The keys a code file answers to. */
export function fileKeysFor(language: string, path: string): FileKey[] {
  const lower = path.toLowerCase();
  const base = stripCodeExtension(lower);
  const folder = posix.dirname(lower);
  const full = new Set([lower, base]);
  const baseName = posix.basename(base);
  // A Go package is its folder; elsewhere an index file stands for its folder.
  if ((language === "go" || INDEX_NAMES[language]?.includes(baseName)) && folder !== ".") full.add(folder);
  const keys = new Map<string, boolean>();
  for (const key of full) keys.set(key, true);
  for (const key of full) for (const tail of tailsOf(key)) if (!keys.has(tail)) keys.set(tail, false);
  return [...keys].map(([key, isFull]) => ({ key, full: isFull }));
}
