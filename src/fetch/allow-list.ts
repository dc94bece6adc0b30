/**
 * `PKS_FETCH_ALLOW`: the operator's exceptions to the address policy, for
 * tests and for deployments that fetch from their own network. Each entry is
 * a host name, an IP address or a CIDR block, optionally narrowed to one port
 * (`docs.internal`, `10.0.0.0/8`, `127.0.0.1:8080`, `[::1]:8080`,
 * `wiki.internal:443`).
 */
import ipaddr from "ipaddr.js";
import { canonicalAddress } from "./address-policy.js";

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

interface HostEntry {
  readonly host: string;
  readonly port: number | undefined;
}

interface RangeEntry {
  readonly range: Range;
  readonly port: number | undefined;
}

/** A parsed allow-list. Empty: only public addresses are fetched. */
export interface AllowList {
  /** True when the URL's host name (lower case, no trailing dot) is named: its addresses are not checked. */
  allowsHost(host: string, port: number): boolean;
  /** True when the address falls in a named address or block (and port, when the entry names one). */
  allowsAddress(address: string, port: number): boolean;
}

/** Host names as DNS has them: labels of letters, digits, hyphens and underscores. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/**
 * Parses the entries; a malformed one is a configuration error naming it,
 * so a typo cannot silently leave the policy stricter or looser than meant.
 */
export function parseAllowList(entries: readonly string[]): AllowList {
  const hosts: HostEntry[] = [];
  const ranges: RangeEntry[] = [];
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === "") continue;
    const parsed = parseEntry(entry);
    if (!parsed) throw new Error(`invalid configuration: PKS_FETCH_ALLOW: "${entry}" is not a host name, IP address or CIDR block (with an optional :port)`);
    if ("host" in parsed) hosts.push(parsed);
    else ranges.push(parsed);
  }
  const portMatches = (want: number | undefined, port: number) => want === undefined || want === port;
  return {
    allowsHost: (host, port) => {
      const name = normalizeHost(host);
      return hosts.some((h) => h.host === name && portMatches(h.port, port));
    },
    allowsAddress: (address, port) => {
      const ip = canonicalAddress(address);
      if (!ip) return false;
      return ranges.some((r) => r.range[0].kind() === ip.kind() && ip.match(r.range) && portMatches(r.port, port));
    },
  };
}

/** A host name as entries are compared: lower case, without the root's trailing dot. */
export function normalizeHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, "");
}

function parseEntry(entry: string): HostEntry | RangeEntry | undefined {
  if (entry.includes("/")) {
    if (!ipaddr.isValidCIDR(entry)) return undefined;
    const [ip, bits] = ipaddr.parseCIDR(entry);
    return { range: mappedToIPv4([ip, bits]), port: undefined };
  }
  const { name, port } = splitPort(entry);
  if (port === null) return undefined;
  const ip = canonicalAddress(name);
  if (ip) return { range: [ip, ip.kind() === "ipv4" ? 32 : 128], port };
  const host = normalizeHost(name);
  return HOST_NAME.test(host) && !/^[\d.]+$/.test(host) ? { host, port } : undefined;
}

/** `name`, `name:port`, `[v6]`, `[v6]:port`, or a bare IPv6 address; `port: null` when the port is malformed. */
function splitPort(entry: string): { name: string; port: number | undefined | null } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { name: bracketed[1]!, port: toPort(bracketed[2]) };
  if ((entry.match(/:/g) ?? []).length > 1) return { name: entry, port: undefined };
  const colon = entry.lastIndexOf(":");
  if (colon < 0) return { name: entry, port: undefined };
  return { name: entry.slice(0, colon), port: toPort(entry.slice(colon + 1)) };
}

function toPort(digits: string | undefined): number | undefined | null {
  if (digits === undefined) return undefined;
  const n = /^\d{1,5}$/.test(digits) ? Number(digits) : NaN;
  return n >= 1 && n <= 65535 ? n : null;
}

/** `::ffff:10.0.0.0/104` is `10.0.0.0/8`: addresses are matched in their IPv4 form. */
function mappedToIPv4(range: Range): Range {
  const [ip, bits] = range;
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) return [(ip as ipaddr.IPv6).toIPv4Address(), bits - 96];
  return range;
}
