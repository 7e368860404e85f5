import { afterEach, describe, expect, it, vi } from "vitest";
import { clockNow, describeCountdown, formatCountdown, grantState, subscribeClock } from "./countdown";

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe("formatCountdown", () => {
  it("shows the two or three units that matter", () => {
    expect(formatCountdown(3 * d + 4 * h + 5 * m)).toBe("3d 04h");
    expect(formatCountdown(5 * h + 7 * m + 9 * s)).toBe("5h 07m 09s");
    expect(formatCountdown(7 * m + 9 * s)).toBe("7m 09s");
    expect(formatCountdown(9 * s)).toBe("9s");
  });

  it("rounds partial seconds up, so the last second reads 1s and the end reads Expired", () => {
    expect(formatCountdown(1)).toBe("1s");
    expect(formatCountdown(59_001)).toBe("1m 00s");
    expect(formatCountdown(h - 1)).toBe("1h 00m 00s");
    expect(formatCountdown(0)).toBe("Expired");
    expect(formatCountdown(-5 * s)).toBe("Expired");
    expect(formatCountdown(Number.NaN)).toBe("Expired");
  });
});

describe("describeCountdown", () => {
  it("says the time left in words, two units at most", () => {
    expect(describeCountdown(3 * d + 4 * h + 5 * m)).toBe("3 days 4 hours left");
    expect(describeCountdown(h + 1 * s)).toBe("1 hour 1 second left");
    expect(describeCountdown(1 * s)).toBe("1 second left");
    expect(describeCountdown(0)).toBe("Expired");
  });
});

describe("grantState", () => {
  const end = "2026-11-23T20:00:00.000Z";
  const at = Date.parse(end);

  it("is permanent for a grant that is not temporary", () => {
    expect(grantState({ isTemporary: false, temporaryAccessEndTime: end }, at + d)).toBe("permanent");
  });

  it("is active strictly before the end time, expired from it on", () => {
    expect(grantState({ isTemporary: true, temporaryAccessEndTime: end }, at - 1)).toBe("active");
    expect(grantState({ isTemporary: true, temporaryAccessEndTime: end }, at)).toBe("expired");
    expect(grantState({ isTemporary: true, temporaryAccessEndTime: null }, at - d)).toBe("expired");
  });
});

describe("the shared clock", () => {
  afterEach(() => vi.useRealTimers());

  it("ticks every listener once a second, and stops when the last one leaves", () => {
    vi.useFakeTimers({ now: new Date("2026-11-23T20:00:00.400Z") });
    const a = vi.fn();
    const b = vi.fn();
    const stopA = subscribeClock(a);
    const stopB = subscribeClock(b);
    vi.advanceTimersByTime(3000);
    expect(a).toHaveBeenCalledTimes(3);
    expect(b).toHaveBeenCalledTimes(3);
    expect(clockNow()).toBe(Date.parse("2026-11-23T20:00:03.400Z"));
    stopA();
    vi.advanceTimersByTime(1000);
    expect(a).toHaveBeenCalledTimes(3);
    expect(b).toHaveBeenCalledTimes(4);
    stopB();
    expect(vi.getTimerCount()).toBe(0);
  });
});
