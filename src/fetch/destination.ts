/**
 * Where a fetch may connect: the URL's host resolved once, every address
 * checked, and the checked addresses handed to the socket (see
 * `pinnedLookup`) so that a second, different answer from DNS — a rebind
 * between check and connect — is never asked for.
 */
import { lookup } from "node:dns/promises";
import type { LookupAddress } from "node:dns";
import { AppError } from "../errors.js";
import { classifyAddress } from "./address-policy.js";
import type { AllowList } from "./allow-list.js";
import { isIpLiteral, portOf, socketHost } from "./fetch-url.js";

/** Resolves a host name to every address it has (the system resolver by default). */
export type Resolver = (host: string) => Promise<LookupAddress[]>;

/** The system resolver, as the socket would have used it: every address, in the resolver's order. */
export const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

const ALLOW_HINT = "(set PKS_FETCH_ALLOW to allow it)";

/**
 * Resolves the URL's host and checks every address it has: all must be
 * public, or named by the allow-list; one that is not refuses the fetch,
 * since the socket could otherwise pick it. A host name the allow-list names
 * is trusted with whatever it resolves to. `context` is added after the URL
 * in messages (e.g. which URL redirected here).
 */
export async function checkDestination(url: URL, allow: AllowList, resolve: Resolver, context = ""): Promise<LookupAddress[]> {
  const host = socketHost(url);
  const port = portOf(url);
  const refuse = (reason: string) => new AppError("fetch_refused", { message: `refused to fetch ${url.href}${context}: ${reason} ${ALLOW_HINT}` });
  if (isIpLiteral(url)) {
    const verdict = classifyAddress(host);
    if (!verdict.public && !allow.allowsAddress(host, port)) throw refuse(verdict.reason);
    return [{ address: host, family: host.includes(":") ? 6 : 4 }];
  }
  const addresses = await resolveHost(url, host, resolve, context);
  if (allow.allowsHost(host, port)) return addresses;
  for (const { address } of addresses) {
    const verdict = classifyAddress(address);
    if (!verdict.public && !allow.allowsAddress(address, port)) throw refuse(`${host} resolves to ${address}, and ${verdict.reason}`);
  }
  return addresses;
}

async function resolveHost(url: URL, host: string, resolve: Resolver, context: string): Promise<LookupAddress[]> {
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch (err) {
    const code = (err as { code?: string }).code ?? "error";
    throw new AppError("fetch_failed", { message: `fetching ${url.href}${context} failed: ${host} does not resolve (${code})` });
  }
  if (addresses.length === 0) throw new AppError("fetch_failed", { message: `fetching ${url.href}${context} failed: ${host} has no address` });
  return addresses;
}

/** The `lookup` signature `net.connect` calls: `all` asks for every address. */
type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the socket that answers only the checked addresses (of the
 * family asked for), never asking DNS again: the connection goes where the
 * check looked.
 */
export function pinnedLookup(addresses: readonly LookupAddress[]) {
  return (_host: string, options: { family?: number | string; all?: boolean }, callback: LookupCallback): void => {
    const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : Number(options.family ?? 0);
    const usable = addresses.filter((a) => family === 0 || a.family === family);
    if (usable.length === 0) {
      const err: NodeJS.ErrnoException = Object.assign(new Error("no checked address of the requested family"), { code: "ENOTFOUND" });
      callback(err, options.all ? [] : "", 0);
    } else if (options.all) {
      callback(null, usable.map((a) => ({ address: a.address, family: a.family })));
    } else {
      callback(null, usable[0]!.address, usable[0]!.family);
    }
  };
}
