import { useQuery } from "@tanstack/react-query";
import { CalendarClock, CalendarArrowDown, TriangleAlert } from "lucide-react";
import { useSearchParams } from "react-router";
import { ErrorPanel } from "@/components/errors/error-panel";
import { PageHeader } from "@/components/layout/page-header";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useNow } from "@/hooks/use-now";
import { useServerFeature } from "@/hooks/use-server-feature";
import { useSession } from "@/hooks/use-session";
import { cn } from "@/lib/cn";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import type { RadarGap } from "../api";
import type { Ending } from "../endings";
import { radarQueries } from "../queries";
import { inWindow, parseWindow, type RadarWindow, radarWindows, windowLabels } from "../window";
import { EndingRow } from "./ending-row";

export function ExpiryRadarPage() {
  const session = useSession();
  const privilegesV2 = useServerFeature("privilegesV2");
  const query = useQuery(radarQueries.endings(session.organization.id, { privilegesV2 }));
  const [search, setSearch] = useSearchParams();
  const window = parseWindow(search.get("window"));
  const now = useNow();
  const shown = query.data?.endings.filter((ending) => inWindow(ending, window, now)) ?? [];

  return (
    <div className="grid gap-5">
      <PageHeader
        title="Expiry radar"
        description="Everything that ends: access tokens, client secrets, temporary roles and privileges. Extend, revoke or add the dates to a calendar."
        actions={
          <Button
            size="sm"
            disabled={shown.length === 0}
            onClick={() =>
              download(shown, window).catch((error: unknown) =>
                toast.error("Could not export the calendar", errorSummary(error, "The export failed")),
              )
            }
          >
            <CalendarArrowDown aria-hidden />
            Export .ics
          </Button>
        }
      />
      <div role="group" aria-label="Show" className="flex flex-wrap gap-1.5">
        {radarWindows.map((w) => (
          <button
            key={w}
            type="button"
            aria-pressed={w === window}
            onClick={() => setSearch(w === "7d" ? {} : { window: w }, { replace: true })}
            className={cn(
              "inline-flex h-8 items-center gap-1.5 rounded-md border border-border bg-card px-3 text-[13px] font-medium outline-none",
              "hover:bg-hover focus-visible:ring-2 focus-visible:ring-ring",
              "aria-pressed:border-accent aria-pressed:bg-accent-subtle aria-pressed:text-accent-subtle-foreground",
            )}
          >
            {windowLabels[w]}
            {query.data ? (
              <span className="font-mono text-xs tabular-nums opacity-70">
                {query.data.endings.filter((ending) => inWindow(ending, w, now)).length}
              </span>
            ) : null}
          </button>
        ))}
      </div>
      {query.data ? <Gaps gaps={query.data.gaps} /> : null}
      {query.isPending ? (
        <RadarSkeleton />
      ) : query.isError ? (
        <ErrorPanel error={query.error} title="Could not load what ends" onRetry={() => void query.refetch()} />
      ) : shown.length === 0 ? (
        <Empty window={window} anything={query.data.endings.length > 0} showAll={() => setSearch({ window: "all" })} />
      ) : (
        <ul
          aria-label={`Endings: ${windowLabels[window]}`}
          className="divide-y divide-border overflow-hidden rounded-xl border border-border bg-card shadow-xs"
        >
          {shown.map((ending) => (
            <EndingRow key={ending.key} ending={ending} now={now} />
          ))}
        </ul>
      )}
      {shown.some((ending) => ending.kind === "token") ? (
        <p className="text-xs text-muted-foreground">
          An access token is renewed by the program that holds it; the console never holds tokens, so here it can only
          be revoked.
        </p>
      ) : null}
    </div>
  );
}

/** The calendar writer loads when first used: most visits export nothing. */
async function download(endings: Ending[], window: RadarWindow) {
  const { endingsCalendar } = await import("../ics");
  const blob = new Blob([endingsCalendar(endings)], { type: "text/calendar;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `keyhold-expiring-${window}.ics`;
  link.click();
  URL.revokeObjectURL(url);
}

function Empty({ window, anything, showAll }: { window: RadarWindow; anything: boolean; showAll: () => void }) {
  if (!anything) {
    return (
      <EmptyState
        icon={CalendarClock}
        title="Nothing here ends"
        description="No access token, client secret, temporary role or temporary privilege has an end date. Temporary access granted on a project's Access page shows up here."
      />
    );
  }
  return (
    <EmptyState
      icon={CalendarClock}
      title={window === "expired" ? "Nothing has expired" : `Nothing ends ${windowLabels[window].toLowerCase()}`}
      description="Other endings are outside this filter."
      action={
        <Button size="sm" onClick={showAll}>
          Show all
        </Button>
      }
    />
  );
}

/** What the server could not give; on a server without an endpoint, the page says which one, once. */
function Gaps({ gaps }: { gaps: RadarGap[] }) {
  if (gaps.length === 0) return null;
  const missing = new Map<string, string[]>();
  for (const gap of gaps.filter((g) => g.missing)) {
    missing.set(gap.endpoint, [...(missing.get(gap.endpoint) ?? []), gap.what]);
  }
  const refused = gaps.filter((g) => !g.missing);
  return (
    <section
      aria-label="Not shown"
      className="grid gap-1.5 rounded-lg border border-warning-border bg-warning-subtle px-4 py-3 text-[13px] text-warning-subtle-foreground"
    >
      <p className="flex items-center gap-2 font-medium">
        <TriangleAlert aria-hidden className="size-4 shrink-0" />
        Some endings could not be read, so this list may be incomplete.
      </p>
      <ul className="grid gap-1 pl-6">
        {[...missing].map(([endpoint, whats]) => (
          <li key={endpoint} className="min-w-0 break-words">
            This server does not offer <span className="font-mono text-xs">{endpoint}</span>: {whatList(whats)}{" "}
            {whats.length === 1 ? "is" : "are"} not shown.
          </li>
        ))}
        {refused.map((gap) => (
          <li key={`${gap.what}-${gap.endpoint}`} className="min-w-0 break-words">
            {gap.what}: {gap.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

function whatList(whats: string[]): string {
  if (whats.length <= 2) return whats.join(" and ");
  return `${whats.slice(0, 2).join(", ")} and ${whats.length - 2} more`;
}

function RadarSkeleton() {
  return (
    <div
      aria-busy="true"
      aria-label="Loading what ends"
      className="grid gap-px overflow-hidden rounded-xl border border-border"
    >
      {[0, 1, 2, 3].map((i) => (
        <div key={i} className="flex items-center gap-4 bg-card px-4 py-4">
          <Skeleton className="h-8 w-28" />
          <Skeleton className="h-4 flex-1" />
          <Skeleton className="h-8 w-20" />
        </div>
      ))}
    </div>
  );
}
