import { describe, expect, it } from "vitest";
import { checkTrustedIps, parseTrustedIp, trustedIpText } from "./trusted-ips";

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
    expect(parseTrustedIp(entry)).toEqual({ ok: true, value });
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
    const check = checkTrustedIps(["2001:db8::1", "10.0.0.0/8", "2001:0DB8:0::1"]);
    expect(check.rows).toEqual([
      { value: "2001:db8::1" },
      { value: "10.0.0.0/8" },
      { value: "2001:db8::1", error: "Same range as row 1" },
    ]);
  });

  it("warns when both whole address families are allowed", () => {
    expect(checkTrustedIps(["0.0.0.0/0", "::/0"])).toMatchObject({ allowsEverything: true, allowsFamily: undefined });
    expect(checkTrustedIps(["0.0.0.0/0"])).toMatchObject({ allowsEverything: false, allowsFamily: "IPv4" });
    expect(checkTrustedIps(["::/0", "10.0.0.1"])).toMatchObject({ allowsEverything: false, allowsFamily: "IPv6" });
    expect(checkTrustedIps(["10.0.0.1"])).toMatchObject({ allowsEverything: false, allowsFamily: undefined });
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
