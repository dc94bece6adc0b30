/**
 * A URL as the fetcher accepts it: parsed the WHATWG way (so every numeric
 * host form — `2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1` — is already the
 * dotted address it means), http or https only, without credentials.
 */
import { AppError } from "../errors.js";

/** The one refusal for anything but http and https, as the task error shows it. */
export const SCHEME_MESSAGE = "only http and https URLs can be fetched";

/**
 * Parses and checks a URL to fetch. Refuses: text that is not a URL,
 * schemes other than http(s) (`file:`, `ftp:`, `data:`, `javascript:` …),
 * and URLs carrying a user name or password — the URL is stored as the
 * task's input, visible to everyone who can read the task, and pks never
 * sends credentials to a document host. `context` is added to messages for
 * redirect targets.
 */
export function parseFetchUrl(raw: string, context = ""): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError("fetch_refused", { message: `refused to fetch ${raw}${context}: it is not a valid URL` });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AppError("unsupported_url_scheme", { message: context ? `${SCHEME_MESSAGE}${context}` : SCHEME_MESSAGE });
  }
  if (url.username !== "" || url.password !== "") {
    const bare = new URL(url.href);
    bare.username = "";
    bare.password = "";
    throw new AppError("fetch_refused", {
      message: `refused to fetch ${bare.href}${context}: the URL carries a user name or password, which pks never sends`,
    });
  }
  url.hash = "";
  return url;
}

/** The port a URL connects to: its own, else its scheme's. */
export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/** The host as a socket takes it: an IPv6 literal without its brackets. */
export function socketHost(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/** Whether the URL's host is an IP literal (after WHATWG parsing: dotted IPv4 or bracketed IPv6). */
export function isIpLiteral(url: URL): boolean {
  return url.hostname.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(url.hostname);
}
