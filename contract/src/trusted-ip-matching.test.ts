import { describe, expect, it } from "vitest";
import { callerAddressOf, parseTrustedIp, type TrustedIpRange, trustedIpMatcher } from "./trusted-ips.ts";

/*
 * The rule that admits or refuses a caller by its address. The service checks every request with
 * it and the console's "Would this address pass?" shows its answer, so this suite runs in the
 * contract's, the service's and the console's test runs alike.
 */

const ranges = (...texts: string[]): (TrustedIpRange | undefined)[] => texts.map((text) => parseTrustedIp(text));

describe("trustedIpMatcher", () => {
  const list = ranges("10.0.0.0/8", "203.0.113.7", "2001:db8::/32", "10.1.0.0/16");
  const firstMatch = trustedIpMatcher(list);

  it.each([
    ["10.1.2.3", 0],
    ["10.255.255.255", 0],
    ["203.0.113.7", 1],
    ["2001:db8:1::9", 2],
    ["::ffff:10.9.9.9", 0],
    ["::ffff:203.0.113.7", 1],
  ])("admits %j by entry %i, the first that holds it", (address, index) => {
    expect(firstMatch(address)).toBe(index);
  });

  it.each(["11.0.0.1", "203.0.113.8", "2001:db9::1", "9.255.255.255", "not an address", ""])(
    "refuses %j",
    (address) => {
      expect(firstMatch(address)).toBe(-1);
    },
  );

  it("never matches across families: ::/0 holds no IPv4 caller, 0.0.0.0/0 no IPv6 one", () => {
    expect(trustedIpMatcher(ranges("::/0"))("192.0.2.1")).toBe(-1);
    expect(trustedIpMatcher(ranges("0.0.0.0/0"))("2001:db8::1")).toBe(-1);
    expect(trustedIpMatcher(ranges("0.0.0.0/0"))("192.0.2.1")).toBe(0);
  });

  it("keeps the places of unreadable rows, which match nothing", () => {
    const match = trustedIpMatcher([undefined, { ipAddress: "not an address" }, ...ranges("192.0.2.0/24")]);
    expect(match("192.0.2.55")).toBe(2);
  });

  it("reads the stored form, a null prefix being a single address", () => {
    const match = trustedIpMatcher([
      { ipAddress: "198.51.100.0", prefix: null },
      { ipAddress: "198.51.100.0", prefix: 24 },
    ]);
    expect(match("198.51.100.0")).toBe(0);
    expect(match("198.51.100.1")).toBe(1);
  });

  it("an empty list admits no one", () => {
    expect(trustedIpMatcher([])("192.0.2.1")).toBe(-1);
  });
});

describe("callerAddressOf", () => {
  it.each([
    [" 192.0.2.1 ", "192.0.2.1"],
    ["2001:DB8::1", "2001:db8::1"],
    ["::ffff:192.0.2.1", "192.0.2.1"],
  ])("reads %j as %j", (text, address) => {
    expect(callerAddressOf(text)).toBe(address);
  });

  it.each(["192.0.2.0/24", "10", "0x0a.0.0.1", "192.0.2.256", "example.com", ""])("refuses %j", (text) => {
    expect(callerAddressOf(text)).toBeUndefined();
  });
});
