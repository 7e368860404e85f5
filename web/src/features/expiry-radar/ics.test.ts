import { describe, expect, it } from "vitest";
import type { Ending } from "./endings";
import { endingsCalendar } from "./ics";

const ending = (over: Partial<Ending> = {}): Ending => ({
  key: "privilege-7b1c",
  kind: "privilege",
  name: "db-read",
  holder: { kind: "identity", id: "i1", name: 'ci; bot, "prod"' },
  project: { id: "p1", name: "payments" },
  endsAt: "2026-11-29T08:30:00.000Z",
  cause: "temporary",
  action: { type: "none" },
  ...over,
});

/** Unfolds RFC 5545 content lines (CRLF + one space continues a line). */
const unfold = (text: string) => text.replace(/\r\n[ \t]/g, "");

describe("endingsCalendar", () => {
  it("writes one VEVENT per ending, with CRLF line ends", () => {
    const text = endingsCalendar([ending(), ending({ key: "token-9", kind: "token", name: "deploy" })]);
    expect(text.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(text.trimEnd().endsWith("END:VCALENDAR")).toBe(true);
    expect(text.match(/BEGIN:VEVENT\r\n/g)).toHaveLength(2);
    expect(text).not.toMatch(/[^\r]\n/);
  });

  it("puts DTSTART in UTC and keeps the UID stable across exports", () => {
    const first = unfold(endingsCalendar([ending()], new Date("2026-11-28T10:00:00Z")));
    const second = unfold(endingsCalendar([ending()], new Date("2026-11-28T11:00:00Z")));
    expect(first).toContain("DTSTART:20261129T083000Z");
    expect(first).toContain("UID:privilege-7b1c@keyhold");
    expect(second).toContain("UID:privilege-7b1c@keyhold");
    expect(first).toContain("DTSTAMP:20261128T100000Z");
  });

  it("escapes commas, semicolons and backslashes in text", () => {
    const text = unfold(endingsCalendar([ending({ name: "a\\b" })]));
    expect(text).toContain('SUMMARY:Temporary privilege a\\\\b ends (ci\\; bot\\, "prod"\\, project payments)');
  });

  it("folds lines longer than 75 octets", () => {
    const text = endingsCalendar([ending({ name: "x".repeat(200) })]);
    for (const line of text.split("\r\n")) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
  });

  it("writes an empty calendar when nothing ends", () => {
    const text = endingsCalendar([]);
    expect(text).toContain("BEGIN:VCALENDAR");
    expect(text).not.toContain("BEGIN:VEVENT");
  });
});
