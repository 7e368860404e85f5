import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { REMASK_AFTER_MS, useRevealed } from "./use-remask";

describe("useRevealed", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("masks each value again 60 s after it was revealed", () => {
    const { result } = renderHook(() => useRevealed<string>());
    act(() => result.current.reveal("A"));
    act(() => vi.advanceTimersByTime(20_000));
    act(() => result.current.toggle("B"));
    expect([...result.current.keys]).toEqual(["A", "B"]);
    act(() => vi.advanceTimersByTime(REMASK_AFTER_MS - 20_000));
    expect([...result.current.keys]).toEqual(["B"]);
    act(() => vi.advanceTimersByTime(20_000));
    expect(result.current.keys.size).toBe(0);
  });

  it("masks everything when the window loses focus", () => {
    const { result } = renderHook(() => useRevealed<string>());
    act(() => {
      result.current.reveal("A");
      result.current.reveal("B");
    });
    act(() => {
      window.dispatchEvent(new Event("blur"));
    });
    expect(result.current.keys.size).toBe(0);
  });

  it("masks everything when the tab is hidden, not when it is shown", () => {
    const { result } = renderHook(() => useRevealed<string>());
    const visibility = vi.spyOn(document, "visibilityState", "get");
    act(() => result.current.reveal("A"));
    visibility.mockReturnValue("visible");
    act(() => {
      document.dispatchEvent(new Event("visibilitychange"));
    });
    expect(result.current.keys.has("A")).toBe(true);
    visibility.mockReturnValue("hidden");
    act(() => {
      document.dispatchEvent(new Event("visibilitychange"));
    });
    expect(result.current.keys.size).toBe(0);
    visibility.mockRestore();
  });

  it("hides one value on a second toggle, leaving the others", () => {
    const { result } = renderHook(() => useRevealed<string>());
    act(() => {
      result.current.toggle("A");
      result.current.toggle("B");
    });
    act(() => result.current.toggle("A"));
    expect([...result.current.keys]).toEqual(["B"]);
  });
});
