import { describe, expect, it } from "vitest";
import { isIpTrusted, parseTrustedIp } from "./trusted-ips.ts";

describe("trusted IPs", () => {
  it("parses addresses and CIDR blocks into the stored form", () => {
    expect(parseTrustedIp("10.0.0.0/8")).toEqual({ ipAddress: "10.0.0.0", type: "ipv4", prefix: 8 });
    expect(parseTrustedIp(" 192.168.1.7 ")).toEqual({ ipAddress: "192.168.1.7", type: "ipv4" });
    expect(parseTrustedIp("2001:db8::/32")).toEqual({ ipAddress: "2001:db8::", type: "ipv6", prefix: 32 });
    for (const bad of ["10.0.0.0/33", "10", "0x0a.0.0.1", "::/129", "host.example", ""]) {
      expect(parseTrustedIp(bad), bad).toBeUndefined();
    }
  });

  it("stores an IPv4-mapped IPv6 block as the IPv4 block it covers", () => {
    const range = parseTrustedIp("::ffff:10.0.0.0/104");
    expect(range).toEqual({ ipAddress: "10.0.0.0", type: "ipv4", prefix: 8 });
    expect(
      isIpTrusted(
        "10.1.2.3",
        [range].filter((r) => !!r),
      ),
    ).toBe(true);
    expect(
      isIpTrusted(
        "11.0.0.1",
        [range].filter((r) => !!r),
      ),
    ).toBe(false);
    expect(parseTrustedIp("::ffff:0.0.0.0/95")).toBeUndefined();
  });

  it("matches IPv4 callers, including IPv4-mapped IPv6 ones, and IPv6 callers", () => {
    const ranges = [parseTrustedIp("10.0.0.0/8"), parseTrustedIp("2001:db8::/32")].filter((r) => !!r);
    expect(isIpTrusted("10.20.30.40", ranges)).toBe(true);
    expect(isIpTrusted("::ffff:10.20.30.40", ranges)).toBe(true);
    expect(isIpTrusted("127.0.0.1", ranges)).toBe(false);
    expect(isIpTrusted("2001:db8::1", ranges)).toBe(true);
    expect(isIpTrusted("::1", ranges)).toBe(false);
    expect(isIpTrusted("not-an-ip", ranges)).toBe(false);
  });
});
