/** A path made safe and canonical, or the reason it cannot be. */
export type NormalizedPath = { ok: true; path: string } | { ok: false; reason: string };

const MAX_PATH_LENGTH = 1024;

/**
 * Canonical project-relative POSIX path: backslashes become `/`, a leading
 * `./` and inner `.` segments go. Absolute paths, `..`, empty segments, NUL
 * and other control characters are refused with a reason.
 */
export function normalizePath(raw: unknown): NormalizedPath {
  if (typeof raw !== "string" || raw.length === 0) return { ok: false, reason: "path is missing" };
  if (raw.length > MAX_PATH_LENGTH) return { ok: false, reason: `path is longer than ${MAX_PATH_LENGTH} characters` };
  if (raw.includes("\0")) return { ok: false, reason: "path contains a NUL byte" };
  // eslint-disable-next-line no-control-regex
  if (/[\x01-\x1f\x7f]/.test(raw)) return { ok: false, reason: "path contains a control character" };
  const slashed = raw.replace(/\\/g, "/");
  if (slashed.startsWith("/") || /^[A-Za-z]:\//.test(slashed) || /^[A-Za-z]:$/.test(slashed)) {
    return { ok: false, reason: "path is absolute" };
  }
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
  return { ok: true, path: kept.join("/") };
}
