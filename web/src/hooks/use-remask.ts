import { useCallback, useEffect, useMemo, useRef, useState } from "react";

/** How long a revealed value stays on screen. */
export const REMASK_AFTER_MS = 60_000;

/**
 * Calls `mask` when the tab is hidden or the window loses focus, while `active`: a value left
 * revealed is not left on a screen nobody is looking at.
 */
export function useRemask(active: boolean, mask: () => void): void {
  const maskRef = useRef(mask);
  useEffect(() => {
    maskRef.current = mask;
  });
  useEffect(() => {
    if (!active) return;
    const onVisibility = () => {
      if (document.visibilityState === "hidden") maskRef.current();
    };
    const onBlur = () => maskRef.current();
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("blur", onBlur);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("blur", onBlur);
    };
  }, [active]);
}

export interface Revealed<K extends string> {
  /** The keys revealed now. */
  keys: ReadonlySet<K>;
  toggle: (key: K) => void;
  reveal: (key: K) => void;
  hide: (key: K) => void;
  hideAll: () => void;
}

/**
 * Which values are revealed, by key: each masks again `afterMs` after it was revealed, and all
 * mask when the tab is hidden or the window loses focus (`useRemask`).
 */
export function useRevealed<K extends string>(afterMs = REMASK_AFTER_MS): Revealed<K> {
  // Each revealed key with the time it was revealed.
  const [since, setSince] = useState<ReadonlyMap<K, number>>(() => new Map());
  const hideAll = useCallback(() => setSince((current) => (current.size === 0 ? current : new Map())), []);
  useRemask(since.size > 0, hideAll);

  // One timer, for the value revealed longest ago.
  useEffect(() => {
    if (since.size === 0) return;
    const oldest = Math.min(...since.values());
    const timer = setTimeout(
      () => {
        const now = Date.now();
        setSince((current) => new Map([...current].filter(([, at]) => now - at < afterMs)));
      },
      Math.max(0, oldest + afterMs - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [since, afterMs]);

  const reveal = useCallback((key: K) => setSince((current) => new Map(current).set(key, Date.now())), []);
  const hide = useCallback(
    (key: K) =>
      setSince((current) => {
        if (!current.has(key)) return current;
        const next = new Map(current);
        next.delete(key);
        return next;
      }),
    [],
  );
  const toggle = useCallback(
    (key: K) =>
      setSince((current) => {
        const next = new Map(current);
        if (!next.delete(key)) next.set(key, Date.now());
        return next;
      }),
    [],
  );
  const keys = useMemo(() => new Set(since.keys()), [since]);
  return useMemo(() => ({ keys, toggle, reveal, hide, hideAll }), [keys, toggle, reveal, hide, hideAll]);
}
