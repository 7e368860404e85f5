import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GrantDuration, RoleBadge } from "./countdown-text";

const start = new Date("2026-11-23T20:00:00.000Z");
const inMs = (ms: number) => new Date(start.getTime() + ms).toISOString();

describe("live countdowns", () => {
  beforeEach(() => vi.useFakeTimers({ now: start }));
  afterEach(() => vi.useRealTimers());

  it("tick every second without rendering the table around them again", () => {
    let tableRenders = 0;
    function RolesTable() {
      tableRenders += 1;
      return (
        <table>
          <tbody>
            <tr>
              <td>
                <RoleBadge name="Admin" grant={{ isTemporary: true, temporaryAccessEndTime: inMs(4 * 3_600_000) }} />
              </td>
              <td>
                <RoleBadge name="Viewer" grant={{ isTemporary: false }} />
              </td>
            </tr>
          </tbody>
        </table>
      );
    }
    render(<RolesTable />);
    expect(screen.getByText("4h 00m 00s")).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(3_000));
    expect(screen.getByText("3h 59m 57s")).toBeInTheDocument();
    expect(screen.getByText("3 hours 59 minutes left")).toBeInTheDocument();
    expect(tableRenders).toBe(1);
  });

  it("turn to expired by themselves when the end passes", () => {
    render(
      <>
        <RoleBadge name="Admin" grant={{ isTemporary: true, temporaryAccessEndTime: inMs(2_000) }} />
        <GrantDuration grant={{ isTemporary: true, temporaryAccessEndTime: inMs(2_000) }} />
      </>,
    );
    expect(screen.getAllByText("2s")).toHaveLength(2);
    act(() => vi.advanceTimersByTime(2_000));
    expect(screen.getByText("expired")).toBeInTheDocument();
    expect(screen.getByText("Expired")).toBeInTheDocument();
    expect(screen.queryByText(/\ds$/)).not.toBeInTheDocument();
  });

  it("show permanent grants as permanent", () => {
    render(<GrantDuration grant={{ isTemporary: false }} />);
    expect(screen.getByText("Permanent")).toBeInTheDocument();
  });
});
