import { describe, expect, it } from "vitest";
import { classifyAddress } from "../../../src/fetch/address-policy.js";
import { parseAllowList } from "../../../src/fetch/allow-list.js";

const refused = (address: string) => {
  const v = classifyAddress(address);
  return v.public ? "public" : v.reason;
};

describe("address classification", () => {
  it("refuses every non-public IPv4 range, naming what the address is", () => {
    const cases: Array<[string, string]> = [
      ["127.0.0.1", "127.0.0.1 is a loopback address"],
      ["127.255.0.9", "127.255.0.9 is a loopback address"],
      ["10.1.2.3", "10.1.2.3 is a private address"],
      ["172.16.0.1", "172.16.0.1 is a private address"],
      ["172.31.255.254", "172.31.255.254 is a private address"],
      ["192.168.1.1", "192.168.1.1 is a private address"],
      ["169.254.169.254", "169.254.169.254 is a link-local address (the cloud metadata service)"],
      ["169.254.0.5", "169.254.0.5 is a link-local address"],
      ["100.64.0.1", "100.64.0.1 is a carrier-grade NAT address"],
      ["100.127.255.255", "100.127.255.255 is a carrier-grade NAT address"],
      ["224.0.0.1", "224.0.0.1 is a multicast address"],
      ["239.255.255.250", "239.255.255.250 is a multicast address"],
      ["0.0.0.0", "0.0.0.0 is an unspecified address"],
      ["0.1.2.3", "0.1.2.3 is an unspecified address"],
      ["255.255.255.255", "255.255.255.255 is the broadcast address"],
      ["240.0.0.1", "240.0.0.1 is a reserved address"],
      ["192.0.2.10", "192.0.2.10 is a reserved address"],
      ["198.51.100.7", "198.51.100.7 is a reserved address"],
      ["203.0.113.1", "203.0.113.1 is a reserved address"],
      ["192.0.0.8", "192.0.0.8 is a reserved address"],
      ["198.18.0.1", "198.18.0.1 is a reserved address"],
    ];
    for (const [address, reason] of cases) expect(refused(address), address).toBe(reason);
  });

  it("refuses every non-public IPv6 range", () => {
    const cases: Array<[string, string]> = [
      ["::1", "::1 is a loopback address"],
      ["::", ":: is an unspecified address"],
      ["fe80::1", "fe80::1 is a link-local address"],
      ["febf:ffff::1", "febf:ffff::1 is a link-local address"],
      ["fc00::1", "fc00::1 is a unique-local address"],
      ["fd12:3456::1", "fd12:3456::1 is a unique-local address"],
      ["ff02::1", "ff02::1 is a multicast address"],
      ["2001:db8::1", "2001:db8::1 is a reserved address"],
      ["fec0::1", "fec0::1 is a site-local address"],
      ["100::1", "100::1 is a discard-only address"],
      ["64:ff9b:1::a00:1", "64:ff9b:1::a00:1 is a local-use NAT64 address"],
    ];
    for (const [address, reason] of cases) expect(refused(address), address).toBe(reason);
  });

  it("judges IPv6 forms that carry an IPv4 address by that address", () => {
    const cases: Array<[string, string]> = [
      ["::ffff:127.0.0.1", "::ffff:127.0.0.1 is an IPv4-mapped address of 127.0.0.1, a loopback address"],
      ["::ffff:7f00:1", "::ffff:127.0.0.1 is an IPv4-mapped address of 127.0.0.1, a loopback address"],
      ["::ffff:169.254.169.254", "::ffff:169.254.169.254 is an IPv4-mapped address of 169.254.169.254, a link-local address (the cloud metadata service)"],
      ["::ffff:10.0.0.1", "::ffff:10.0.0.1 is an IPv4-mapped address of 10.0.0.1, a private address"],
      ["::7f00:1", "::127.0.0.1 is an IPv4-compatible address of 127.0.0.1, a loopback address"],
      ["::c0a8:101", "::192.168.1.1 is an IPv4-compatible address of 192.168.1.1, a private address"],
      ["::ffff:0:7f00:1", "::ffff:0:127.0.0.1 is an IPv4-translated address of 127.0.0.1, a loopback address"],
      ["64:ff9b::a00:1", "64:ff9b::a00:1 is a NAT64 address of 10.0.0.1, a private address"],
      ["64:ff9b::7f00:1", "64:ff9b::7f00:1 is a NAT64 address of 127.0.0.1, a loopback address"],
      ["2002:c0a8:101::1", "2002:c0a8:101::1 is a 6to4 address of 192.168.1.1, a private address"],
      // Teredo keeps the client's address inverted in the last 32 bits: 80ff:fffe → 127.0.0.1.
      ["2001:0:4136:e378:8000:63bf:80ff:fffe", "2001:0:4136:e378:8000:63bf:80ff:fffe is a Teredo address of 127.0.0.1, a loopback address"],
    ];
    for (const [address, reason] of cases) expect(refused(address), address).toBe(reason);
  });

  it("lets ordinary public addresses through, IPv4 and IPv6, also when carried in IPv6", () => {
    for (const address of ["8.8.8.8", "1.1.1.1", "93.184.215.14", "172.32.0.1", "100.128.0.1", "192.169.0.1", "2606:4700:4700::1111", "2a00:1450:4001:82b::200e", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"]) {
      expect(classifyAddress(address), address).toEqual({ public: true });
    }
  });

  it("refuses anything that is not a canonical address (short, octal or hex forms are the URL parser's to expand)", () => {
    for (const address of ["127.1", "0177.0.0.1", "0x7f.0.0.1", "2130706433", "example.com", "", "1.2.3.4.5"]) {
      expect(refused(address), address).toBe(`${address} is not an IP address`);
    }
  });
});

describe("PKS_FETCH_ALLOW", () => {
  it("matches addresses, CIDR blocks and ports; IPv4 entries cover the IPv4-mapped form", () => {
    const allow = parseAllowList(["127.0.0.1", "10.0.0.0/8", "[::1]:8080", "192.168.1.5:4000", "fd00::/8", "::ffff:172.16.0.0/108"]);
    expect(allow.allowsAddress("127.0.0.1", 80)).toBe(true);
    expect(allow.allowsAddress("::ffff:127.0.0.1", 80)).toBe(true);
    expect(allow.allowsAddress("127.0.0.2", 80)).toBe(false);
    expect(allow.allowsAddress("10.200.3.4", 443)).toBe(true);
    expect(allow.allowsAddress("11.0.0.1", 443)).toBe(false);
    expect(allow.allowsAddress("::1", 8080)).toBe(true);
    expect(allow.allowsAddress("::1", 8081)).toBe(false);
    expect(allow.allowsAddress("192.168.1.5", 4000)).toBe(true);
    expect(allow.allowsAddress("192.168.1.5", 4001)).toBe(false);
    expect(allow.allowsAddress("fd12::7", 80)).toBe(true);
    expect(allow.allowsAddress("172.16.9.9", 80)).toBe(true);
    expect(allow.allowsAddress("172.32.0.1", 80)).toBe(false);
  });

  it("matches host names exactly, without case or the trailing dot, optionally on one port", () => {
    const allow = parseAllowList([" Docs.Internal ", "wiki.internal:8443", ""]);
    expect(allow.allowsHost("docs.internal", 443)).toBe(true);
    expect(allow.allowsHost("DOCS.internal.", 80)).toBe(true);
    expect(allow.allowsHost("a.docs.internal", 80)).toBe(false);
    expect(allow.allowsHost("wiki.internal", 8443)).toBe(true);
    expect(allow.allowsHost("wiki.internal", 443)).toBe(false);
    expect(allow.allowsAddress("127.0.0.1", 80)).toBe(false);
  });

  it("an empty list allows nothing", () => {
    const allow = parseAllowList([]);
    expect(allow.allowsAddress("127.0.0.1", 80)).toBe(false);
    expect(allow.allowsHost("localhost", 80)).toBe(false);
  });

  it("refuses a malformed entry, naming it", () => {
    for (const entry of ["10.0.0.0/33", "host:0", "host:99999", "bad host", "1.2.3", "http://x", "[::1"]) {
      expect(() => parseAllowList([entry]), entry).toThrow(`invalid configuration: PKS_FETCH_ALLOW: "${entry}" is not a host name, IP address or CIDR block (with an optional :port)`);
    }
  });
});
