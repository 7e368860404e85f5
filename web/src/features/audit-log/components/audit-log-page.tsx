import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { CalendarSearch, History, RefreshCw, ScrollText } from "lucide-react";
import { lazy, Suspense, useCallback, useMemo, useRef, useState } from "react";
import { ErrorPanel } from "@/components/errors/error-panel";
import { PageHeader } from "@/components/layout/page-header";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useServerFeature } from "@/hooks/use-server-feature";
import { useSession } from "@/hooks/use-session";
import { isUserSessionOnly } from "@/lib/api-error";
import { hasFilters, windowProblem } from "../audit-filter";
import { auditQueries } from "../queries";
import { EventList } from "./event-list";
import { FilterBar } from "./filter-bar";
import { useAuditFilter } from "./use-audit-filter";

// The drawer and the export dialog (Radix dialogs) load when first used.
const EventDrawer = lazy(async () => ({ default: (await import("./event-drawer")).EventDrawer }));
const ExportMenu = lazy(async () => ({ default: (await import("./export-menu")).ExportMenu }));

const count = new Intl.NumberFormat("en");

export function AuditLogPage() {
  return (
    <div className="grid gap-5">
      <PageHeader
        title="Audit log"
        description="Who did what in this organization: every change, every read of a secret value, every sign-in and token."
      />
      <AuditLogContent />
    </div>
  );
}

function AuditLogContent() {
  const { filter, window, repin, update, clearAll, eventId, openEvent } = useAuditFilter();
  const plan = useServerFeature("auditLogs");
  const session = useSession();
  const problem = windowProblem(window);
  const list = useInfiniteQuery({ ...auditQueries.list(filter, window), enabled: !problem && plan.available });
  const events = useMemo(() => list.data?.pages.flat() ?? [], [list.data]);
  const newer = useQuery({
    ...auditQueries.newer(filter, window.endDate, session.identity.id),
    // A custom window with an end of its own does not grow.
    enabled: list.isSuccess && !(filter.range === "custom" && filter.to),
  });
  const now = useMemo(() => Date.parse(window.endDate), [window.endDate]);
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = list;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage && !isFetchNextPageError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);
  const open = events.find((event) => event.id === eventId);
  // The row that opened the drawer, to return to when it closes.
  const opener = useRef<HTMLElement | null>(null);
  const openFrom = useCallback(
    (id: string) => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      openEvent(id);
    },
    [openEvent],
  );
  const [drawerUsed, setDrawerUsed] = useState(eventId !== undefined);
  if (eventId !== undefined && !drawerUsed) setDrawerUsed(true);
  const nextPageError = list.isFetchNextPageError ? list.error : undefined;
  const loadMoreAgain = () => void list.fetchNextPage();

  return (
    <section aria-label="Audit events" className="grid min-w-0 gap-3">
      <FilterBar
        filter={filter}
        window={window}
        update={update}
        clearAll={clearAll}
        actions={
          <Suspense fallback={<Skeleton className="h-8 w-24" />}>
            <ExportMenu filter={filter} window={window} />
          </Suspense>
        }
      />
      {newer.data ? (
        <div
          role="status"
          className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-accent/30 bg-accent-subtle px-3 py-2 text-[13px] text-accent-subtle-foreground"
        >
          <span>
            {newer.data >= 100 ? "100+" : count.format(newer.data)} new {newer.data === 1 ? "event" : "events"} since
            this list was loaded.
          </span>
          <Button size="sm" variant="ghost" onClick={repin}>
            <RefreshCw aria-hidden />
            Show
          </Button>
        </div>
      ) : null}
      {!plan.available ? (
        <EmptyState
          icon={ScrollText}
          title="This server's plan does not keep audit logs"
          description={plan.reason ?? "The secrets server this console talks to stores no audit events on its plan."}
        />
      ) : problem ? (
        <EmptyState icon={CalendarSearch} title="These dates cannot be read" description={problem} />
      ) : list.isPending ? (
        <ListSkeleton />
      ) : list.isError ? (
        isUserSessionOnly(list.error) && !filter.projectId ? (
          <EmptyState
            icon={ScrollText}
            title="Pick a project to read its audit log"
            description="This server lists the organization's audit log only to users, not to machine identities. It lists each project's log: choose a project in the filters."
          />
        ) : (
          <ErrorPanel error={list.error} title="Could not load the audit log" onRetry={() => void list.refetch()} />
        )
      ) : events.length === 0 ? (
        <EmptyState
          icon={History}
          title="No events in this window"
          description={
            hasFilters(filter)
              ? "No event matches these filters in this window: widen the dates or clear filters."
              : "No events in this window: widen the dates."
          }
          action={
            hasFilters(filter) ? (
              <Button size="sm" onClick={clearAll}>
                Clear filters
              </Button>
            ) : filter.range !== "30d" ? (
              <Button size="sm" onClick={() => update({ range: "30d", from: undefined, to: undefined })}>
                Show the last 30 days
              </Button>
            ) : undefined
          }
        />
      ) : (
        <>
          <EventList
            events={events}
            hasMore={list.hasNextPage}
            loadingMore={list.isFetchingNextPage}
            onLoadMore={loadMore}
            now={now}
            selectedId={eventId}
            onOpen={openFrom}
          />
          {nextPageError ? (
            <ErrorPanel error={nextPageError} title="Could not load more events" onRetry={loadMoreAgain} />
          ) : null}
        </>
      )}
      {/* Mounted from the first opening on, so that closing it returns focus to the row that opened it. */}
      {drawerUsed ? (
        <Suspense fallback={null}>
          <EventDrawer
            eventId={eventId}
            event={open}
            loading={list.isPending || list.isFetchingNextPage}
            onClose={() => openEvent(undefined)}
            returnFocus={() => opener.current}
          />
        </Suspense>
      ) : null}
    </section>
  );
}

function ListSkeleton() {
  return (
    <div className="overflow-hidden rounded-xl border border-border bg-card" aria-busy="true">
      <span className="sr-only" role="status">
        Loading events…
      </span>
      <div className="h-9 border-b border-border bg-surface" />
      {[0, 1, 2, 3, 4, 5, 6].map((row) => (
        <div key={row} className="flex h-14 items-center gap-6 border-b border-border px-4 last:border-0">
          <Skeleton className="h-4 w-20" />
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-4 w-32" />
          <Skeleton className="ml-auto h-4 w-24" />
        </div>
      ))}
    </div>
  );
}
