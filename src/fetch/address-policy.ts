/**
 * Which IP addresses a document fetch may connect to. Classification uses
 * ipaddr.js (its IANA special-purpose ranges are kept up to date by the
 * library, so no CIDR table is maintained here); the only logic of our own is
 * unwrapping the IPv6 forms that carry an IPv4 address, since the connection
 * ends up at that IPv4 address.
 */
import ipaddr from "ipaddr.js";
import { lookupTable } from "../lookup.js";

/** What an address is, for a fetch: public (may be fetched) or why not. */
export type AddressVerdict = { public: true } | { public: false; reason: string };

/** How each special range reads in a refusal (`127.0.0.1 is a loopback address`). */
const RANGE_WORDS = lookupTable<string>({
  unspecified: "an unspecified address",
  broadcast: "the broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  loopback: "a loopback address",
  carrierGradeNat: "a carrier-grade NAT address",
  private: "a private address",
  reserved: "a reserved address",
  benchmarking: "a benchmarking address",
  amt: "an AMT relay address",
  as112: "an AS112 address",
  uniqueLocal: "a unique-local address",
  deprecatedSiteLocal: "a site-local address",
  discard: "a discard-only address",
  orchid2: "an ORCHID address",
  deprecatedOrchid: "an ORCHID address",
  droneRemoteIdProtocolEntityTags: "a drone remote ID address",
  segmentRouting: "a segment-routing address",
  as112v6: "an AS112 address",
});

/** The cloud instance-metadata address, named in its refusal because it is the classic target. */
const METADATA = "169.254.169.254";

/**
 * Classifies one IP address (IPv4 dotted or IPv6, no brackets). Only
 * ordinary unicast is public. IPv6 addresses that embed an IPv4 address
 * (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, IPv4-translated
 * `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::`,
 * Teredo) are judged by the IPv4 address they lead to; the local-use NAT64
 * prefix `64:ff9b:1::/48` is local by definition. Anything that does not
 * parse as a canonical address (four-part decimal IPv4, or IPv6) is refused.
 */
export function classifyAddress(address: string): AddressVerdict {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return classifyIPv4(ipaddr.IPv4.parse(address), address);
  if (ipaddr.IPv6.isValid(address)) return classifyIPv6(ipaddr.IPv6.parse(address));
  return { public: false, reason: `${address} is not an IP address` };
}

/** Why an IPv4 address is not public (`a loopback address`), or undefined when it is. */
function ipv4Words(ip: ipaddr.IPv4): string | undefined {
  const range = ip.range();
  if (range === "unicast") return undefined;
  const words = RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
  return ip.toString() === METADATA ? `${words} (the cloud metadata service)` : words;
}

function classifyIPv4(ip: ipaddr.IPv4, shown: string): AddressVerdict {
  const words = ipv4Words(ip);
  return words === undefined ? { public: true } : { public: false, reason: `${shown} is ${words}` };
}

function classifyIPv6(ip: ipaddr.IPv6): AddressVerdict {
  const shown = ip.toRFC5952String();
  const embedded = embeddedIPv4(ip);
  if (embedded) {
    const words = ipv4Words(embedded.ipv4);
    if (words === undefined) return { public: true };
    const dotted = embedded.prefix ? `${embedded.prefix}${embedded.ipv4.toString()}` : shown;
    return { public: false, reason: `${dotted} is ${embedded.form} of ${embedded.ipv4.toString()}, ${words}` };
  }
  if (ip.match(ipaddr.IPv6.parse("64:ff9b:1::"), 48)) return { public: false, reason: `${shown} is a local-use NAT64 address` };
  const range = ip.range();
  if (range === "unicast") return { public: true };
  return { public: false, reason: `${shown} is ${RANGE_WORDS[range] ?? `a special-purpose address (${range})`}` };
}

/**
 * The IPv4 address an IPv6 address carries, the form it is carried in, and
 * (for the forms written with a dotted tail) the prefix to show it with.
 */
function embeddedIPv4(ip: ipaddr.IPv6): { ipv4: ipaddr.IPv4; form: string; prefix?: string } | undefined {
  const p = ip.parts;
  const low = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const range = ip.range();
  if (range === "ipv4Mapped") return { ipv4: low(p[6]!, p[7]!), form: "an IPv4-mapped address", prefix: "::ffff:" };
  if (range === "rfc6145") return { ipv4: low(p[6]!, p[7]!), form: "an IPv4-translated address", prefix: "::ffff:0:" };
  if (range === "rfc6052" && ip.match(ipaddr.IPv6.parse("64:ff9b::"), 96)) return { ipv4: low(p[6]!, p[7]!), form: "a NAT64 address" };
  if (range === "6to4") return { ipv4: low(p[1]!, p[2]!), form: "a 6to4 address" };
  // Teredo: the client's IPv4 address is the last 32 bits, inverted.
  if (range === "teredo") return { ipv4: low(p[6]! ^ 0xffff, p[7]! ^ 0xffff), form: "a Teredo address" };
  // IPv4-compatible (::a.b.c.d, deprecated): ipaddr.js has no range for it; :: and ::1 are its own ranges.
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7]! > 1)) return { ipv4: low(p[6]!, p[7]!), form: "an IPv4-compatible address", prefix: "::" };
  return undefined;
}

/**
 * The address in the form allow-list entries are matched in: an IPv6
 * address that merely maps an IPv4 address is that IPv4 address.
 */
export function canonicalAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!ipaddr.IPv4.isValidFourPartDecimal(address) && !ipaddr.IPv6.isValid(address)) return undefined;
  return ipaddr.process(address);
}
