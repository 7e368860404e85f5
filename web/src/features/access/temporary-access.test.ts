import { describe, expect, it } from "vitest";
import {
  fromStored,
  PERMANENT,
  parseLocalDateTime,
  previewEnd,
  rangeMs,
  TemporaryAccessSchema,
  type TemporaryAccess,
  toLocalDateTime,
  toTemporaryWire,
} from "./temporary-access";

const now = new Date("2026-11-23T20:00:00.000Z");
const temporary = (patch: Partial<TemporaryAccess> = {}): TemporaryAccess => ({
  isTemporary: true,
  temporaryRange: "1h",
  startMode: "now",
  startAt: "",
  ...patch,
});
const issues = (value: TemporaryAccess) => {
  const result = TemporaryAccessSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("rangeMs", () => {
  it("reads ranges as the server's ms library does", () => {
    expect(rangeMs("30m")).toBe(30 * 60_000);
    expect(rangeMs("1h")).toBe(3_600_000);
    expect(rangeMs("2 days")).toBe(2 * 86_400_000);
    expect(rangeMs(" 7d ")).toBe(7 * 86_400_000);
    expect(rangeMs("60000")).toBe(60_000);
    expect(rangeMs("5s")).toBe(5_000);
  });

  it("refuses what the server refuses: empty, unparsable, zero and negative", () => {
    for (const bad of ["", "   ", "soon", "1x", "0", "0h", "-1h"]) expect(rangeMs(bad), bad).toBeUndefined();
  });
});

describe("TemporaryAccessSchema", () => {
  it("accepts permanent access whatever the temporary fields hold", () => {
    expect(issues({ ...PERMANENT, temporaryRange: "nonsense", startMode: "at", startAt: "" })).toEqual([]);
  });

  it("accepts a temporary grant starting now with a valid range", () => {
    expect(issues(temporary())).toEqual([]);
  });

  it("asks for a range, and for one it can read", () => {
    expect(issues(temporary({ temporaryRange: "" }))).toEqual(["temporaryRange: Enter how long access lasts, e.g. 1h"]);
    expect(issues(temporary({ temporaryRange: "a while" }))).toEqual([
      "temporaryRange: Use a duration such as 30m, 1h, 1d or 7d",
    ]);
  });

  it("asks for a start time when access starts at a chosen time", () => {
    expect(issues(temporary({ startMode: "at", startAt: "" }))).toEqual(["startAt: Choose a start date and time"]);
    expect(issues(temporary({ startMode: "at", startAt: "2026-11-24T09:30" }))).toEqual([]);
  });
});

describe("toTemporaryWire", () => {
  it("sends only isTemporary for permanent access", () => {
    expect(toTemporaryWire(PERMANENT, now)).toEqual({ isTemporary: false });
  });

  it("starts now at the moment of sending, in relative mode", () => {
    expect(toTemporaryWire(temporary({ temporaryRange: " 1d " }), now)).toEqual({
      isTemporary: true,
      temporaryMode: "relative",
      temporaryRange: "1d",
      temporaryAccessStartTime: "2026-11-23T20:00:00.000Z",
    });
  });

  it("sends a chosen local start time as UTC ISO", () => {
    const startAt = "2026-12-01T08:15";
    const wire = toTemporaryWire(temporary({ startMode: "at", startAt }), now);
    expect(wire).toMatchObject({ temporaryAccessStartTime: new Date(startAt).toISOString() });
    expect(wire.isTemporary && wire.temporaryAccessStartTime.endsWith("Z")).toBe(true);
  });
});

describe("previewEnd", () => {
  it("is start plus range, as the server computes the end", () => {
    expect(previewEnd(temporary({ temporaryRange: "90m" }), now)?.toISOString()).toBe("2026-11-23T21:30:00.000Z");
    const startAt = "2026-12-01T08:15";
    expect(previewEnd(temporary({ startMode: "at", startAt, temporaryRange: "1d" }), now)?.getTime()).toBe(
      new Date(startAt).getTime() + 86_400_000,
    );
  });

  it("has no end for permanent access or input the server would refuse", () => {
    expect(previewEnd(PERMANENT, now)).toBeUndefined();
    expect(previewEnd(temporary({ temporaryRange: "later" }), now)).toBeUndefined();
    expect(previewEnd(temporary({ startMode: "at", startAt: "" }), now)).toBeUndefined();
  });
});

describe("local date-times", () => {
  it("round-trips a Date through a datetime-local value to the second", () => {
    const date = new Date(2026, 10, 23, 7, 5, 9);
    expect(toLocalDateTime(date)).toBe("2026-11-23T07:05:09");
    expect(parseLocalDateTime(toLocalDateTime(date))?.getTime()).toBe(date.getTime());
  });

  it("refuses what is not a datetime-local value", () => {
    expect(parseLocalDateTime("")).toBeUndefined();
    expect(parseLocalDateTime("tomorrow")).toBeUndefined();
    expect(parseLocalDateTime("2026-13-45T99:99")).toBeUndefined();
  });
});

describe("fromStored", () => {
  it("reads a permanent grant as permanent", () => {
    expect(fromStored({ isTemporary: false, temporaryRange: null })).toEqual(PERMANENT);
  });

  it("keeps a temporary grant's recorded start, so saving it unchanged keeps its end", () => {
    const stored = { isTemporary: true, temporaryRange: "4h", temporaryAccessStartTime: "2026-11-23T18:00:00.000Z" };
    const values = fromStored(stored);
    expect(values).toMatchObject({ isTemporary: true, temporaryRange: "4h", startMode: "at" });
    expect(toTemporaryWire(values, now)).toEqual({
      isTemporary: true,
      temporaryMode: "relative",
      temporaryRange: "4h",
      temporaryAccessStartTime: "2026-11-23T18:00:00.000Z",
    });
  });
});
