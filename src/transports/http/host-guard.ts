import type { MiddlewareHandler } from "hono";
import type { Config } from "../../config.js";
import { AppError } from "../../errors.js";
import { errorResponse } from "./error-response.js";

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]", "::1"];

export interface HostGuardOptions {
  /**
   * Paths where `Origin: null` is left to the route: a browser sends it for a
   * same-origin form POST from a page whose referrer policy is `no-referrer`
   * (the console's pages), and the console checks those posts itself
   * (`Sec-Fetch-Site`, CSRF token). The `Host` is checked everywhere.
   */
  opaqueOriginPaths?: (path: string) => boolean;
}

/**
 * DNS-rebinding and cross-site protection for every HTTP route: the `Host`
 * must name this server (loopback or a configured host) and an `Origin`, when
 * sent, must be one of ours. Anything else answers 403 and runs nothing.
 */
export function hostGuard(config: Config, options: HostGuardOptions = {}): MiddlewareHandler {
  const hosts = new Set([...LOOPBACK_NAMES, ...config.allowedHosts.map((h) => h.toLowerCase())]);
  const origins = new Set(config.allowedOrigins.map((o) => o.toLowerCase()));
  return async (c, next) => {
    const host = c.req.header("host");
    const origin = c.req.header("origin");
    const opaque = origin?.trim().toLowerCase() === "null" && options.opaqueOriginPaths?.(c.req.path) === true;
    if (!isAllowedHost(host, hosts) || (origin !== undefined && !opaque && !isAllowedOrigin(origin, hosts, origins))) {
      return errorResponse(c, new AppError("forbidden", { message: "host or origin not allowed" }));
    }
    await next();
  };
}

function hostnameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  return h.split(":")[0] ?? "";
}

function isAllowedHost(host: string | undefined, hosts: Set<string>): boolean {
  if (!host) return false;
  return hosts.has(hostnameOf(host));
}

function isAllowedOrigin(origin: string, hosts: Set<string>, origins: Set<string>): boolean {
  const o = origin.trim().toLowerCase();
  if (origins.has(o)) return true;
  let url: URL;
  try {
    url = new URL(o);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  return LOOPBACK_NAMES.includes(url.hostname) && hosts.has(url.hostname);
}
