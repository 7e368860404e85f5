import { describe, expect, it } from "vitest";
import {
  checkTrustedIps,
  parseTrustedIp,
  readTestAddress,
  trustedIpsAdmit,
  trustedIpText,
  wouldPass,
} from "./trusted-ips";

describe("parseTrustedIp", () => {
  it.each([
    ["10.0.0.1", "10.0.0.1"],
    [" 10.0.0.0/8 ", "10.0.0.0/8"],
    ["0.0.0.0/0", "0.0.0.0/0"],
    ["::/0", "::/0"],
    ["2001:DB8:0:0:0:0:0:1", "2001:db8::1"],
    ["2001:0db8::/32", "2001:db8::/32"],
    ["::ffff:10.0.0.1", "10.0.0.1"],
    ["::ffff:10.0.0.0/104", "10.0.0.0/8"],
  ])("accepts %j as %j", (entry, value) => {
    expect(parseTrustedIp(entry)).toEqual({ ok: true, value, hostBitsCleared: false });
  });

  it.each([
    ["203.0.113.7/24", "203.0.113.0/24"],
    ["10.1.2.3/8", "10.0.0.0/8"],
    ["2001:db8::1/64", "2001:db8::/64"],
    ["::ffff:10.1.2.3/104", "10.0.0.0/8"],
  ])("writes %j as its block %j, saying the host bits were cleared", (entry, value) => {
    expect(parseTrustedIp(entry)).toEqual({ ok: true, value, hostBitsCleared: true });
  });

  it.each(["10", "0x0a.0.0.1", "10.0.0.256", "10.0.0.0/33", "2001:db8::/129", "example.com", "10.0.0.0/", "1.2.3.4/x"])(
    "refuses %j",
    (entry) => {
      expect(parseTrustedIp(entry)).toMatchObject({ ok: false, message: expect.stringMatching(/IPv4 or IPv6/) });
    },
  );

  it("asks for something in an empty row", () => {
    expect(parseTrustedIp("  ")).toEqual({ ok: false, message: "Enter an address or CIDR block, or remove the row" });
  });

  it("refuses an IPv4-mapped block wider than the IPv4 space", () => {
    expect(parseTrustedIp("::ffff:0.0.0.0/90")).toEqual({
      ok: false,
      message: "An IPv4-mapped block needs a prefix of at least 96",
    });
  });
});

describe("checkTrustedIps", () => {
  it("flags a repeat, including one written differently, on the later row", () => {
    const check = checkTrustedIps(["2001:db8::1", "10.0.0.0/8", "2001:0DB8:0::1", "10.9.9.9/8"]);
    expect(check.rows).toEqual([
      { value: "2001:db8::1" },
      { value: "10.0.0.0/8" },
      { value: "2001:db8::1", error: "Same range as row 1" },
      { value: "10.0.0.0/8", hostBitsCleared: true, error: "Same range as row 2" },
    ]);
  });

  it("marks a row inside another row's block, in either order and either family", () => {
    const check = checkTrustedIps(["10.1.0.0/16", "10.0.0.0/8", "192.0.2.1", "2001:db8::/32", "2001:db8:5::/48"]);
    expect(check.rows.map((row) => row.coveredBy)).toEqual([1, undefined, undefined, undefined, 3]);
  });

  it("marks every row of a family that 0.0.0.0/0 or ::/0 already admits", () => {
    const check = checkTrustedIps(["0.0.0.0/0", "::/0", "10.0.0.0/8", "2001:db8::1"]);
    expect(check.rows.map((row) => row.coveredBy)).toEqual([undefined, undefined, 0, 1]);
  });

  it("does not let an invalid row or a repeat cover another", () => {
    const check = checkTrustedIps(["10.0.0.1", "10.0.0.0/8x", "10.0.0.1"]);
    expect(check.rows.map((row) => row.coveredBy)).toEqual([undefined, undefined, undefined]);
  });

  it("warns when both whole address families are allowed", () => {
    expect(checkTrustedIps(["0.0.0.0/0", "::/0"])).toMatchObject({ allowsEverything: true, allowsFamily: undefined });
    expect(checkTrustedIps(["0.0.0.0/0"])).toMatchObject({ allowsEverything: false, allowsFamily: "IPv4" });
    expect(checkTrustedIps(["::/0", "10.0.0.1"])).toMatchObject({ allowsEverything: false, allowsFamily: "IPv6" });
    expect(checkTrustedIps(["10.0.0.1"])).toMatchObject({ allowsEverything: false, allowsFamily: undefined });
  });

  it("says whom an open list admits", () => {
    expect(trustedIpsAdmit(checkTrustedIps(["0.0.0.0/0", "::/0"]))).toBe("any address");
    expect(trustedIpsAdmit(checkTrustedIps(["1.2.3.4/0"]))).toBe("any IPv4 address");
    expect(trustedIpsAdmit(checkTrustedIps(["10.0.0.0/8"]))).toBeUndefined();
  });

  it("keeps an invalid row's error and still checks the others", () => {
    const check = checkTrustedIps(["nope", "10.0.0.1"]);
    expect(check.rows[0]?.error).toMatch(/IPv4 or IPv6/);
    expect(check.rows[1]).toEqual({ value: "10.0.0.1" });
  });
});

describe("trustedIpText", () => {
  it("joins a stored address and prefix", () => {
    expect(trustedIpText({ ipAddress: "0.0.0.0", prefix: 0 })).toBe("0.0.0.0/0");
    expect(trustedIpText({ ipAddress: "10.0.0.1", prefix: null })).toBe("10.0.0.1");
    expect(trustedIpText({ ipAddress: "10.0.0.0/8", prefix: 8 })).toBe("10.0.0.0/8");
  });
});

describe("wouldPass", () => {
  const list = ["10.0.0.0/8", "203.0.113.7/24", "not an address", "2001:db8::/32"];

  it("names the first row that admits the address, as it is saved", () => {
    expect(wouldPass("10.20.30.40", list)).toEqual({ passes: true, row: 0, entry: "10.0.0.0/8" });
    expect(wouldPass("203.0.113.200", list)).toEqual({ passes: true, row: 1, entry: "203.0.113.0/24" });
    expect(wouldPass("2001:db8::5", list)).toEqual({ passes: true, row: 3, entry: "2001:db8::/32" });
  });

  it("refuses an address no row holds, and every address for an empty list", () => {
    expect(wouldPass("192.0.2.1", list)).toEqual({ passes: false });
    expect(wouldPass("192.0.2.1", [])).toEqual({ passes: false });
  });
});

describe("readTestAddress", () => {
  it("reads one address of either family", () => {
    expect(readTestAddress(" 203.0.113.7 ")).toEqual({ ok: true, address: "203.0.113.7" });
    expect(readTestAddress("::ffff:203.0.113.7")).toEqual({ ok: true, address: "203.0.113.7" });
    expect(readTestAddress("2001:DB8::1")).toEqual({ ok: true, address: "2001:db8::1" });
  });

  it("says nothing while empty and why otherwise", () => {
    expect(readTestAddress("  ")).toEqual({ ok: false });
    expect(readTestAddress("10.0.0.0/8")).toEqual({ ok: false, message: "Enter one address, not a block" });
    expect(readTestAddress("10")).toMatchObject({ ok: false, message: expect.stringMatching(/IPv4 or IPv6/) });
  });
});
