import { useCallback, useState } from "react";
import { useSearchParams } from "react-router";
import {
  type AuditFilter,
  type AuditWindow,
  EMPTY_FILTER,
  PARAMS,
  readAuditFilter,
  windowOf,
  writeAuditFilter,
} from "../audit-filter";

/**
 * The page's filter and open event, kept in the URL, and the window the list reads: pinned when
 * the filter first shows (or changes), so events written meanwhile do not shift the list's
 * offsets; `repin` moves its end to now (the "new events" banner).
 */
export function useAuditFilter() {
  const [params, setParams] = useSearchParams();
  const filter = readAuditFilter(params);
  const filterKey = writeAuditFilter(new URLSearchParams(), filter).toString();
  // One pin per filter for as long as the page is open: rendering again reads the same one.
  const [pins] = useState(() => new Map<string, number>());
  const [, setRepinned] = useState(0);
  const window: AuditWindow = windowOf(filter, pinFor(pins, filterKey));

  const update = useCallback(
    (patch: Partial<AuditFilter>) =>
      setParams((current) => writeAuditFilter(current, { ...readAuditFilter(current), ...patch }), {
        preventScrollReset: true,
      }),
    [setParams],
  );
  // "Clear all" clears the filters; the date window stays.
  const clearAll = useCallback(
    () =>
      setParams((current) => writeAuditFilter(current, { ...EMPTY_FILTER, ...dates(readAuditFilter(current)) }), {
        preventScrollReset: true,
      }),
    [setParams],
  );
  const openEvent = useCallback(
    (eventId: string | undefined) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (eventId) next.set(PARAMS.event, eventId);
          else next.delete(PARAMS.event);
          return next;
        },
        { preventScrollReset: true },
      ),
    [setParams],
  );

  return {
    filter,
    filterKey,
    window,
    repin: () => {
      pins.delete(filterKey);
      setRepinned((n) => n + 1);
    },
    update,
    clearAll,
    eventId: params.get(PARAMS.event) ?? undefined,
    openEvent,
  };
}

const dates = ({ range, from, to }: AuditFilter) => ({ range, from, to });

/** When the list of this filter was pinned: the first time it is asked for, now. */
function pinFor(pins: Map<string, number>, filterKey: string): number {
  let at = pins.get(filterKey);
  if (at === undefined) {
    at = Date.now();
    pins.set(filterKey, at);
  }
  return at;
}
