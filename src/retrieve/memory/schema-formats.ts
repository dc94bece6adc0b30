import { isIPv4, isIPv6 } from "node:net";

/**
 * The string formats a caller's schema may name and have checked. A
 * structured answer promises to conform to the caller's schema, so a
 * `format: "date"` field must not be filled with `2024-13-45`: these are
 * validated, each by a check that runs in linear time on the value (fixed,
 * anchored expressions with no nested repetition, or plain code). Any other
 * format name is accepted as any string, quietly (ajv's `logger: false`), as
 * ajv without format definitions always did.
 */
export const SCHEMA_FORMATS: Record<string, (s: string) => boolean> = {
  date: isDate,
  time: (s) => isTime(s, false),
  "date-time": isDateTime,
  // ISO 8601 duration, as ajv-formats reads it (weeks alone), seconds may have a fraction: PT10M, P90D, P2W, PT0.5S.
  duration: (s) => /^P(?!$)(?:(?:\d+Y)?(?:\d+M)?(?:\d+D)?(?:T(?=\d)(?:\d+H)?(?:\d+M)?(?:\d+(?:\.\d+)?S)?)?|\d+W)$/.test(s),
  email: isEmail,
  hostname: isHostname,
  uri: isUri,
  "uri-reference": (s) => !/[\s\p{Cc}]/u.test(s),
  url: isUrl,
  uuid: (s) => /^(?:urn:uuid:)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s),
  ipv4: isIPv4,
  ipv6: isIPv6,
};

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** RFC 3339 full-date: a real calendar day (leap years counted). */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > DAYS[month - 1]!) return false;
  return month !== 2 || day < 29 || (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0));
}

/** RFC 3339 time (zone optional unless `zoned`), a leap second allowed. */
function isTime(s: string, zoned: boolean): boolean {
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(z|[+-]\d{2}:\d{2})?$/i.exec(s);
  if (!m || (zoned && !m[4])) return false;
  return Number(m[1]) <= 23 && Number(m[2]) <= 59 && Number(m[3]) <= 60;
}

/** RFC 3339 date-time: date, `T` (or a space), time with its zone. */
function isDateTime(s: string): boolean {
  const at = s.search(/[tT ]/);
  return at === 10 && isDate(s.slice(0, 10)) && isTime(s.slice(11), true);
}

/** A dot-atom local part, `@`, and a hostname with at least two labels. */
function isEmail(s: string): boolean {
  const at = s.lastIndexOf("@");
  if (at < 1 || at > 64) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  return local.split(".").every((part) => /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+$/i.test(part)) && domain.includes(".") && isHostname(domain);
}

/** RFC 1123 hostname: labels of 1–63 letters, digits or inner hyphens; 253 characters at most. */
function isHostname(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false;
  return s.split(".").every((label) => label.length <= 63 && /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i.test(label));
}

/** An absolute URI: a scheme, no spaces or control characters, and parseable by the WHATWG URL parser. */
function isUri(s: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(s) && !/[\s\p{Cc}]/u.test(s) && URL.canParse(s);
}

/** A web address: an http, https or ftp URI with a host. */
function isUrl(s: string): boolean {
  if (!isUri(s)) return false;
  const u = new URL(s);
  return ["http:", "https:", "ftp:"].includes(u.protocol) && u.hostname.length > 0;
}
