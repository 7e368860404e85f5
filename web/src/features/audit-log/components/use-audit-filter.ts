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
  const [pin, setPin] = useState(() => ({ key: filterKey, at: Date.now() }));
  if (pin.key !== filterKey) setPin({ key: filterKey, at: Date.now() });
  const window: AuditWindow = windowOf(filter, pin.key === filterKey ? pin.at : Date.now());

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
    repin: () => setPin({ key: filterKey, at: Date.now() }),
    update,
    clearAll,
    eventId: params.get(PARAMS.event) ?? undefined,
    openEvent,
  };
}

const dates = ({ range, from, to }: AuditFilter) => ({ range, from, to });
