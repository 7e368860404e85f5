import { describe, expect, it } from "vitest";
import { describeTtl, formatTtl, parseTtl, ttlHint } from "./ttl";

describe("parseTtl", () => {
  it.each([
    ["30d", 2_592_000],
    ["12h", 43_200],
    ["90m", 5_400],
    ["45s", 45],
    ["1w", 604_800],
    ["3600", 3_600],
    ["0", 0],
    ["1d12h", 129_600],
    [" 1d 12h ", 129_600],
    ["2H", 7_200],
  ])("reads %j as %i seconds", (text, seconds) => {
    expect(parseTtl(text)).toEqual({ ok: true, seconds });
  });

  it.each(["", "  ", "abc", "12x", "1.5h", "-5", "h", "12h junk", "d12"])("refuses %j", (text) => {
    expect(parseTtl(text).ok).toBe(false);
  });
});

describe("formatTtl", () => {
  it.each([
    [2_592_000, "30d"],
    [43_200, "12h"],
    [5_400, "90m"],
    [45, "45"],
    [0, "0"],
    [86_401, "86401"],
  ])("writes %i as %j", (seconds, text) => {
    expect(formatTtl(seconds)).toBe(text);
  });

  it("reads back what it writes", () => {
    for (const seconds of [1, 59, 60, 3_599, 3_600, 86_400, 315_360_000]) {
      expect(parseTtl(formatTtl(seconds))).toEqual({ ok: true, seconds });
    }
  });
});

describe("describeTtl and ttlHint", () => {
  it("names the duration in at most two units", () => {
    expect(describeTtl(2_592_000)).toBe("30 days");
    expect(describeTtl(129_600)).toBe("1 day 12 hours");
    expect(describeTtl(5_400)).toBe("1 hour 30 minutes");
    expect(describeTtl(90_061)).toBe("1 day 1 hour");
    expect(describeTtl(0)).toBe("No expiry");
  });

  it("gives the absolute expiry of a token issued now", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    const hint = ttlHint("1d", now);
    expect(hint.ok).toBe(true);
    expect(hint.text).toContain("1 day: a token issued now expires ");
    const expected = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(
      new Date("2026-01-02T00:00:00Z"),
    );
    expect(hint.text).toContain(expected);
  });

  it("says when tokens do not expire, and when the text is not a duration", () => {
    expect(ttlHint("0")).toEqual({ ok: true, text: "No expiry: tokens stay valid until revoked" });
    expect(ttlHint("soon")).toEqual({ ok: false, text: "Use units like 30d, 12h, 90m, or plain seconds" });
  });
});
