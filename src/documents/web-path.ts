/**
 * The project path a fetched document is stored under:
 * `web/<host>/<path>` of the URL that was asked for (not the one redirects
 * ended at, so fetching the same URL again replaces the same file):
 *
 * - `<host>` is the WHATWG host: lower case, IDN in punycode, IPv6 in
 *   brackets, the port only when it is not the scheme's default, no trailing
 *   dot. http and https of one host share it.
 * - each path segment is percent-decoded, unless decoding would give a `/`,
 *   a `\`, a control or invisible character, `.` or `..` (then it stays
 *   encoded); empty segments go;
 * - a URL ending in `/` (or with no path) names `index` in that folder;
 * - the query stays, appended to the last segment (`search?q=x`), since it
 *   often tells two documents apart (a `/` or `\` in it is kept encoded);
 *   the fragment goes.
 *
 * The result goes through the ingest path rules like any other path.
 */
export function webPath(url: URL): string {
  const host = url.host.replace(/\.(?=:\d+$|$)/, "");
  const raw = url.pathname.split("/");
  const segments = raw.filter((s) => s !== "").map(decodeSegment);
  if (segments.length === 0 || raw[raw.length - 1] === "") segments.push("index");
  const last = segments.length - 1;
  segments[last] = `${segments[last]}${url.search.replace(/\//g, "%2F").replace(/\\/g, "%5C")}`;
  return ["web", host, ...segments].join("/");
}

const UNSAFE = /[\\/\x00-\x1f\x7f]|(?!\u200D)\p{Cf}/u;

function decodeSegment(segment: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return segment;
  }
  return UNSAFE.test(decoded) || decoded === "." || decoded === ".." ? segment : decoded;
}
