import { describe, expect, it } from "vitest";
import { commaList } from "./allow-lists.ts";
import { ttlWithinMax } from "./common.ts";
import { cidrBlockOf } from "./runtime-config.ts";
import { blockCovers, isWholeFamily, networkOf, parseTrustedIp, trustedIpEntryText } from "./trusted-ips.ts";

const entry = (text: string) => {
  const parsed = parseTrustedIp(text);
  if (!parsed) throw new Error(`${text} is not an entry`);
  return parsed;
};

describe("parseTrustedIp", () => {
  it("reads addresses and blocks of both families into the stored form", () => {
    expect(parseTrustedIp(" 10.0.0.0/8 ")).toEqual({ ipAddress: "10.0.0.0", type: "ipv4", prefix: 8 });
    expect(parseTrustedIp("203.0.113.7")).toEqual({ ipAddress: "203.0.113.7", type: "ipv4" });
    expect(parseTrustedIp("2001:DB8::/32")).toEqual({ ipAddress: "2001:db8::", type: "ipv6", prefix: 32 });
    expect(parseTrustedIp("::ffff:10.0.0.0/104")).toEqual({ ipAddress: "10.0.0.0", type: "ipv4", prefix: 8 });
  });

  it.each(["10", "0x0a.0.0.1", "10.0.0.0/33", "::/129", "::ffff:0.0.0.0/95", "host.example", ""])(
    "refuses %j",
    (text) => {
      expect(parseTrustedIp(text)).toBeUndefined();
    },
  );

  it("is the rule the proxy list reads too", () => {
    expect(cidrBlockOf("10.1.2.3")).toBe("10.1.2.3/32");
    expect(cidrBlockOf("2001:db8::/48")).toBe("2001:db8::/48");
    expect(cidrBlockOf("10")).toBeUndefined();
  });
});

describe("networkOf", () => {
  it.each([
    ["203.0.113.7/24", "203.0.113.0/24"],
    ["10.255.1.1/8", "10.0.0.0/8"],
    ["1.2.3.4/0", "0.0.0.0/0"],
    ["203.0.113.7/32", "203.0.113.7/32"],
    ["203.0.113.7", "203.0.113.7"],
    ["2001:db8::1/64", "2001:db8::/64"],
    ["2001:db8:ffff::1/32", "2001:db8::/32"],
    ["::ffff:10.1.2.3/104", "10.0.0.0/8"],
  ])("clears the host bits of %j: %j", (text, network) => {
    expect(trustedIpEntryText(networkOf(entry(text)))).toBe(network);
  });
});

describe("blockCovers", () => {
  it.each([
    ["10.0.0.0/8", "10.1.0.0/16", true],
    ["10.0.0.0/8", "10.1.2.3", true],
    ["10.0.0.0/8", "10.0.0.0/8", true],
    ["10.1.0.0/16", "10.0.0.0/8", false],
    ["10.0.0.0/8", "11.0.0.0/16", false],
    ["0.0.0.0/0", "203.0.113.7", true],
    ["2001:db8::/32", "2001:db8:1::/48", true],
    ["2001:db8::/32", "2001:db9::/48", false],
    ["::/0", "10.0.0.0/8", false],
    ["0.0.0.0/0", "2001:db8::1", false],
  ])("%j covers %j: %s", (outer, inner, covers) => {
    expect(blockCovers(entry(outer), entry(inner))).toBe(covers);
  });

  it("knows a whole family", () => {
    expect(isWholeFamily(entry("0.0.0.0/0"))).toBe(true);
    expect(isWholeFamily(entry("::/0"))).toBe(true);
    expect(isWholeFamily(entry("0.0.0.0"))).toBe(false);
  });
});

describe("commaList", () => {
  it("reads entries and drops blanks, so a list of blanks restricts nothing", () => {
    expect(commaList(" ci, default ,")).toEqual(["ci", "default"]);
    expect(commaList(" , ")).toEqual([]);
    expect(commaList(undefined)).toEqual([]);
  });
});

describe("ttlWithinMax", () => {
  it("keeps the TTL within the max; a max of 0 sets no limit only on a configuration being updated", () => {
    expect(ttlWithinMax(3_600, 3_600, "attach")).toBe(true);
    expect(ttlWithinMax(7_200, 3_600, "attach")).toBe(false);
    expect(ttlWithinMax(7_200, 3_600, "update")).toBe(false);
    expect(ttlWithinMax(7_200, 0, "attach")).toBe(false);
    expect(ttlWithinMax(7_200, 0, "update")).toBe(true);
    expect(ttlWithinMax(0, 3_600, "update")).toBe(true);
  });
});
