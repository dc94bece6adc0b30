/**
 * The console's browser-side safety: the session cookie, the CSRF token
 * every mutating form carries, the headers every console answer carries,
 * and the form body reader.
 *
 * The browser holds only the session token, in an HttpOnly, SameSite=Strict
 * cookie (over https: Secure and named `__Host-pks_console`, so no other
 * host, subdomain or plain-http page can set or shadow it; the sign-in
 * nonce likewise `__Secure-`); the API key it was traded for is
 * never stored or sent back. The CSRF token is derived from the session
 * token (a hash no other site can compute without the cookie's value), so it
 * needs no storage and dies with the session. Before a session exists the
 * sign-in form carries a random nonce matched against a short-lived cookie.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { AppError } from "../errors.js";
import { readBodyBytes } from "../transports/http/read-body.js";

export const SESSION_COOKIE = "pks_console";
export const SIGN_IN_COOKIE = "pks_sign_in";
/** The name of the hidden form field holding the CSRF token. */
export const CSRF_FIELD = "csrf";
/** Forms are small: a schema edit is the largest (a JSON Schema in search is a GET). */
const FORM_LIMIT = 256 * 1024;

/**
 * No inline script or style anywhere, no external request of any kind:
 * pages load one stylesheet and one script from this origin, forms post only
 * here, and no one may frame a page.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Headers on every console answer (pages, assets, JSON, redirects, errors). */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  c.res.headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
  c.res.headers.set("X-Content-Type-Options", "nosniff");
  c.res.headers.set("Referrer-Policy", "no-referrer");
  c.res.headers.set("X-Frame-Options", "DENY");
  c.res.headers.set("Cross-Origin-Opener-Policy", "same-origin");
  c.res.headers.set("Cross-Origin-Resource-Policy", "same-origin");
  if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
};

/**
 * The schemes the browser may be using: the request's own, and the one a
 * TLS-terminating proxy names in `X-Forwarded-Proto` (believing it can only
 * make the cookie stricter, or accept this host's https origin).
 */
function schemes(c: Context): Set<string> {
  const forwarded = c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  const own = new URL(c.req.url).protocol.slice(0, -1);
  return new Set(forwarded === "https" || forwarded === "http" ? [own, forwarded] : [own]);
}

const isHttps = (c: Context) => schemes(c).has("https");
/** The cookie name prefix over https (`__Host-` for the session, whose path is `/`; `__Secure-` for the sign-in nonce's). */
const hostPrefix = (c: Context) => (isHttps(c) ? ("host" as const) : undefined);
const securePrefix = (c: Context) => (isHttps(c) ? ("secure" as const) : undefined);

/** The session token the browser sent, if any (its validity is the pipeline's to judge). */
export function sessionToken(c: Context): string | undefined {
  return getCookie(c, SESSION_COOKIE, hostPrefix(c)) || undefined;
}

export function setSessionCookie(c: Context, token: string, expiresAt: string): void {
  setCookie(c, SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "Strict",
    secure: isHttps(c),
    prefix: hostPrefix(c),
    expires: new Date(expiresAt),
  });
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "Strict", secure: isHttps(c), prefix: hostPrefix(c) });
}

/** The CSRF token of a session: a keyed hash of the session token, the same on every page of the session. */
export function csrfToken(session: string): string {
  return createHash("sha256").update(`pks console csrf\0${session}`, "utf8").digest("base64url");
}

/** A fresh sign-in nonce, set as a cookie and returned for the form. */
export function signInNonce(c: Context): string {
  const nonce = randomBytes(24).toString("base64url");
  setCookie(c, SIGN_IN_COOKIE, nonce, { path: "/sign-in", httpOnly: true, sameSite: "Strict", secure: isHttps(c), prefix: securePrefix(c), maxAge: 3600 });
  return nonce;
}

/** The sign-in nonce the browser sent back, if any. */
export function signInNonceCookie(c: Context): string | undefined {
  return getCookie(c, SIGN_IN_COOKIE, securePrefix(c)) || undefined;
}

export function clearSignInNonce(c: Context): void {
  deleteCookie(c, SIGN_IN_COOKIE, { path: "/sign-in", httpOnly: true, sameSite: "Strict", secure: isHttps(c), prefix: securePrefix(c) });
}

/** Constant-time comparison of two tokens (false for absent or unequal lengths). */
export function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * A mutating request must come from a console page of this very origin. The
 * app's host guard already refuses foreign `Host` and `Origin` values; here
 * the console also refuses an `Origin` other than its own (the guard admits
 * any configured origin, which may be another site using the API) and a
 * browser's own word that the request is cross-site.
 *
 * `Origin: null` is what a browser sends for a same-origin form POST from a
 * page served with `Referrer-Policy: no-referrer` (as every console page
 * is), and also what sandboxed and file pages send: it is taken only with
 * the browser's `Sec-Fetch-Site: same-origin` beside it.
 */
export function sameOrigin(c: Context): boolean {
  const origin = c.req.header("origin")?.trim().toLowerCase();
  const site = c.req.header("sec-fetch-site");
  if (origin === "null") return site === "same-origin";
  if (origin !== undefined && !isOwnOrigin(c, origin)) return false;
  return site === undefined || site === "same-origin" || site === "none";
}

/** An origin naming this very host (and port) in a scheme the browser may be using. */
function isOwnOrigin(c: Context, origin: string): boolean {
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  return o.host === new URL(c.req.url).host && schemes(c).has(o.protocol.slice(0, -1)) && o.origin === origin;
}

/** A URL-encoded form body of at most 256 KiB, read once. */
export async function readForm(c: Context): Promise<URLSearchParams> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") throw new AppError("invalid_request_body");
  const bytes = await readBodyBytes(c.req.raw, FORM_LIMIT, "invalid_request_body");
  return new URLSearchParams(new TextDecoder("utf-8").decode(bytes));
}
