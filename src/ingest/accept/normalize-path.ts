/** A path made safe and canonical, or the reason it cannot be. */
export type NormalizedPath = { ok: true; path: string } | { ok: false; reason: string };

const MAX_PATH_LENGTH = 1024;

/** Folders never read, by any path in: version control and pks's own store. */
export const NEVER_READ_FOLDERS: ReadonlySet<string> = new Set([".git", ".hg", ".svn", ".pks"]);

/** A UTF-16 surrogate with no partner: the string cannot be encoded as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/**
 * Invisible format characters (bidi overrides and isolates, zero-width
 * spaces, the BOM …) make a path read differently from what it is; the
 * zero-width joiner stays, since emoji sequences need it.
 */
const FORMAT_CHARACTER = /(?!\u200D)\p{Cf}/u;

/**
 * Canonical project-relative POSIX path: backslashes become `/`, a leading
 * `./` and inner `.` segments go. Absolute paths, drive letters, `..`, empty
 * segments, NUL and other control characters, invisible format characters,
 * lone surrogates and paths inside `.git/` or `.pks/` are refused with a
 * reason — folder sync would never read any of them either.
 */
export function normalizePath(raw: unknown): NormalizedPath {
  if (typeof raw !== "string" || raw.length === 0) return { ok: false, reason: "path is missing" };
  if (raw.length > MAX_PATH_LENGTH) return { ok: false, reason: `path is longer than ${MAX_PATH_LENGTH} characters` };
  if (LONE_SURROGATE.test(raw)) return { ok: false, reason: "path is not valid Unicode" };
  if (raw.includes("\0")) return { ok: false, reason: "path contains a NUL byte" };
  if (/[\x01-\x1f\x7f]/.test(raw)) return { ok: false, reason: "path contains a control character" };
  const format = FORMAT_CHARACTER.exec(raw);
  if (format) return { ok: false, reason: `path contains an invisible format character (U+${format[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")})` };
  const slashed = raw.replace(/\\/g, "/");
  if (slashed.startsWith("/")) return { ok: false, reason: "path is absolute" };
  if (/^[A-Za-z]:/.test(slashed)) return { ok: false, reason: "path starts with a drive letter" };
  const segments = slashed.split("/");
  while (segments[0] === "." && segments.length > 1) segments.shift();
  const kept: string[] = [];
  for (const [i, s] of segments.entries()) {
    if (s === "..") return { ok: false, reason: "path contains '..'" };
    if (s === "" && i === segments.length - 1 && kept.length > 0) return { ok: false, reason: "path names a folder" };
    if (s === "") return { ok: false, reason: "path has an empty segment" };
    if (s !== ".") kept.push(s);
  }
  if (kept.length === 0) return { ok: false, reason: "path names no file" };
  const hidden = kept.slice(0, -1).find((segment) => NEVER_READ_FOLDERS.has(segment.toLowerCase()));
  if (hidden) return { ok: false, reason: `path is inside ${hidden}/, which is never read` };
  return { ok: true, path: kept.join("/") };
}
