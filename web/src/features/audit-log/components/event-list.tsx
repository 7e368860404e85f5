import type { AuditLog } from "@keyhold/contract";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, memo, useEffect, useLayoutEffect, useRef } from "react";
import { Spinner } from "@/components/ui/spinner";
import { useClientWidth } from "@/hooks/use-client-width";
import { cn } from "@/lib/cn";
import { eventTypeLabel } from "../event-types";
import { actorOf, exactTime, placeOf, timeAgo } from "../event-view";

/** Rows of the wide table are this tall (two lines each), so the virtualiser never measures one. */
export const ROW_HEIGHT = 56;
/** Below this width (inside the list's frame) each row stacks its cells. */
export const STACK_BELOW = 680;
const STACKED_HEIGHT = 92;
/** When the rows in view come this close to the last one loaded, the next page is asked for. */
const LOAD_AHEAD = 30;

interface EventListProps {
  events: readonly AuditLog[];
  /** More events exist after the last one loaded. */
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  /** The window's end: times read relative to it. */
  now: number;
  selectedId: string | undefined;
  onOpen: (eventId: string) => void;
}

/**
 * The events as a table whose body holds only the rows in view and a few either side (spacer
 * rows stand for the others, and `aria-rowcount` says how many are loaded). Scrolling near the end
 * loads the next page. A row opens its event on click, Enter or Space; the arrow keys move between
 * rows.
 */
export const EventList = memo(function EventList(props: EventListProps) {
  const { events, hasMore, loadingMore, onLoadMore, now, selectedId, onOpen } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useClientWidth(scrollRef);
  const stacked = width !== undefined && width < STACK_BELOW;
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: events.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => (stacked ? STACKED_HEIGHT : ROW_HEIGHT),
    getItemKey: (index) => (events[index] as AuditLog).id,
    overscan: 8,
    initialRect: { width: 1000, height: 640 },
  });
  useLayoutEffect(() => virtualizer.measure(), [virtualizer, stacked]);
  const items = virtualizer.getVirtualItems();
  const lastInView = items.at(-1)?.index ?? 0;

  useEffect(() => {
    if (hasMore && !loadingMore && lastInView >= events.length - LOAD_AHEAD) onLoadMore();
  }, [hasMore, loadingMore, lastInView, events.length, onLoadMore]);

  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  function onKeyDown(event: KeyboardEvent<HTMLTableRowElement>, index: number) {
    const target = events[index];
    if (!target) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onOpen(target.id);
      return;
    }
    const step = event.key === "ArrowDown" ? 1 : event.key === "ArrowUp" ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = Math.min(events.length - 1, Math.max(0, index + step));
    virtualizer.scrollToIndex(next, { align: "auto" });
    // The row is in the DOM once the virtualiser has rendered it (overscan keeps neighbours there).
    requestAnimationFrame(() =>
      scrollRef.current?.querySelector<HTMLElement>(`[aria-rowindex="${next + 2}"]`)?.focus(),
    );
  }

  return (
    <div
      ref={scrollRef}
      className="relative max-h-[max(26rem,calc(100dvh-19rem))] overflow-auto rounded-xl border border-border bg-card shadow-xs"
    >
      <table
        aria-label="Audit events"
        aria-rowcount={events.length + 1}
        className={cn("w-full text-sm", stacked ? "block" : "table-fixed border-separate border-spacing-0")}
      >
        {stacked ? null : (
          <colgroup>
            <col className="w-36" />
            <col className="w-[24%]" />
            <col className="w-[22%]" />
            <col />
            <col className="w-32" />
          </colgroup>
        )}
        <thead className={stacked ? "sr-only" : "sticky top-0 z-10 bg-surface"}>
          <tr aria-rowindex={1} className="h-9 text-left text-xs font-medium text-muted-foreground">
            <th scope="col" className="border-b border-border pl-4 font-medium">
              Time
            </th>
            <th scope="col" className="border-b border-border px-3 font-medium">
              Event
            </th>
            <th scope="col" className="border-b border-border px-3 font-medium">
              Actor
            </th>
            <th scope="col" className="border-b border-border px-3 font-medium">
              Where
            </th>
            <th scope="col" className="border-b border-border pr-4 pl-3 font-medium">
              IP address
            </th>
          </tr>
        </thead>
        <tbody className={stacked ? "block" : undefined}>
          {before > 0 ? <tr aria-hidden className={stacked ? "block" : undefined} style={{ height: before }} /> : null}
          {items.map((item) => {
            const event = events[item.index] as AuditLog;
            return (
              <EventRow
                key={event.id}
                event={event}
                rowIndex={item.index + 2}
                stacked={stacked}
                now={now}
                selected={event.id === selectedId}
                onOpen={onOpen}
                onKeyDown={(keyEvent) => onKeyDown(keyEvent, item.index)}
              />
            );
          })}
          {after > 0 ? <tr aria-hidden className={stacked ? "block" : undefined} style={{ height: after }} /> : null}
        </tbody>
      </table>
      <div className="flex h-10 items-center justify-center text-[13px] text-muted-foreground" aria-live="polite">
        {loadingMore ? (
          <span className="inline-flex items-center gap-2">
            <Spinner />
            Loading more events…
          </span>
        ) : hasMore ? (
          <button
            type="button"
            onClick={onLoadMore}
            className="rounded-sm underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          >
            Load more
          </button>
        ) : (
          <span>
            End of the window: {events.length.toLocaleString("en")} {events.length === 1 ? "event" : "events"}.
          </span>
        )}
      </div>
    </div>
  );
});

interface EventRowProps {
  event: AuditLog;
  rowIndex: number;
  stacked: boolean;
  now: number;
  selected: boolean;
  onOpen: (eventId: string) => void;
  onKeyDown: (event: KeyboardEvent<HTMLTableRowElement>) => void;
}

const cell = "min-w-0 border-b border-border px-3 align-middle";

function EventRow({ event, rowIndex, stacked, now, selected, onOpen, onKeyDown }: EventRowProps) {
  const actor = actorOf(event);
  const place = placeOf(event);
  const where = [place.environment, place.secretPath, place.secretKey].filter(Boolean);
  const actorLine = actor.email && actor.email !== actor.name ? actor.email : actor.authMethod;
  const label = `${eventTypeLabel(event.event.type)} by ${actor.name ?? actor.type}, ${timeAgo(event.createdAt, now)}`;
  return (
    <tr
      aria-rowindex={rowIndex}
      aria-selected={selected}
      aria-label={label}
      tabIndex={0}
      onClick={() => onOpen(event.id)}
      onKeyDown={onKeyDown}
      className={cn(
        "cursor-pointer outline-none transition-colors hover:bg-hover focus-visible:bg-hover focus-visible:shadow-[inset_2px_0_0_var(--color-ring)]",
        selected && "bg-accent-subtle/60",
        stacked
          ? "grid grid-cols-[minmax(0,1fr)_auto] content-center gap-x-3 gap-y-0.5 border-b border-border px-4"
          : undefined,
      )}
      style={{ height: stacked ? STACKED_HEIGHT : ROW_HEIGHT }}
    >
      <td className={stacked ? "order-2 text-right text-xs text-muted-foreground" : cn(cell, "pl-4")}>
        <time dateTime={event.createdAt} title={exactTime(event.createdAt)} className="tabular-nums">
          {timeAgo(event.createdAt, now)}
        </time>
      </td>
      <td className={stacked ? "order-1 min-w-0" : cell}>
        <div className="truncate font-medium">{eventTypeLabel(event.event.type)}</div>
        {stacked ? null : <div className="truncate font-mono text-xs text-muted-foreground">{event.event.type}</div>}
      </td>
      <td className={stacked ? "order-3 col-span-2 min-w-0 truncate text-[13px]" : cell}>
        <div className="truncate">
          {actor.name ?? <span className="text-muted-foreground">{actor.type}</span>}
          {stacked && actorLine ? <span className="text-muted-foreground"> · {actorLine}</span> : null}
        </div>
        {stacked ? null : <div className="truncate text-xs text-muted-foreground">{actorLine ?? actor.type}</div>}
      </td>
      <td className={stacked ? "order-4 min-w-0 truncate text-xs text-muted-foreground" : cell}>
        <div className="truncate text-[13px]">
          {event.projectName ??
            (event.projectId ? <span className="font-mono text-xs">{event.projectId}</span> : null) ?? (
              <span className="text-muted-foreground">Organization</span>
            )}
        </div>
        {where.length > 0 ? (
          <div className="truncate font-mono text-xs text-muted-foreground">{where.join(" · ")}</div>
        ) : null}
      </td>
      <td
        className={
          stacked
            ? "order-5 text-right font-mono text-xs text-muted-foreground"
            : cn(cell, "pr-4 font-mono text-xs text-muted-foreground")
        }
      >
        {event.ipAddress ?? "—"}
      </td>
    </tr>
  );
}
