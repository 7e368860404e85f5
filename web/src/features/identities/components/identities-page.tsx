import { useSuspenseQuery } from "@tanstack/react-query";
import { Plus, Search, UsersRound } from "lucide-react";
import { lazy, useState } from "react";
import { ErrorPanel } from "@/components/errors/error-panel";
import { QueryBoundary } from "@/components/errors/query-boundary";
import { AfterFirstPaint } from "@/components/layout/after-first-paint";
import { PageHeader } from "@/components/layout/page-header";
import { buttonVariants } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { useSession } from "@/hooks/use-session";
import { identityQueries } from "../queries";

// The page's header renders as soon as its route has loaded; the table (TanStack Table) and
// the create dialog (Radix) load right after that first paint.
const IdentitiesTable = lazy(async () => ({ default: (await import("./identities-table")).IdentitiesTable }));
const CreateIdentityDialog = lazy(async () => ({
  default: (await import("./create-identity-dialog")).CreateIdentityDialog,
}));

/** The create button; until the dialog's code has arrived, an inert look-alike holds its place. */
function CreateIdentity() {
  return (
    <AfterFirstPaint
      fallback={
        <div aria-hidden className={buttonVariants({ variant: "primary", size: "sm", className: "opacity-50" })}>
          <Plus />
          Create identity
        </div>
      }
    >
      <CreateIdentityDialog />
    </AfterFirstPaint>
  );
}

export function IdentitiesPage() {
  return (
    <div className="grid gap-6">
      <PageHeader
        title="Identities"
        description="Machine identities authenticate software, such as CI jobs and services, to your organization."
      />
      <QueryBoundary
        loading={<IdentitiesSkeleton />}
        error={({ error, retry }) => <ErrorPanel error={error} title="Could not load identities" onRetry={retry} />}
      >
        <IdentitiesContent />
      </QueryBoundary>
    </div>
  );
}

function IdentitiesContent() {
  const session = useSession();
  const { data: identities } = useSuspenseQuery(identityQueries.list(session.organization.id));
  const [filter, setFilter] = useState("");

  if (identities.length === 0) {
    return (
      <EmptyState
        icon={UsersRound}
        title="No identities yet"
        description="Create an identity for each system that needs secrets, then give it an auth method."
        action={<CreateIdentity />}
      />
    );
  }

  return (
    <section aria-label="Identity list" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="relative w-full max-w-xs">
          <label htmlFor="identity-filter" className="sr-only">
            Filter identities
          </label>
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            id="identity-filter"
            type="search"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            placeholder="Filter by name, role or auth method"
            className="pl-9"
            autoComplete="off"
          />
        </div>
        <div className="flex items-center gap-3">
          <p className="text-[13px] text-muted-foreground" aria-live="polite">
            {identities.length === 1 ? "1 identity" : `${identities.length} identities`}
          </p>
          <CreateIdentity />
        </div>
      </div>
      <AfterFirstPaint fallback={<TableSkeleton />}>
        <IdentitiesTable identities={identities} filter={filter} onClearFilter={() => setFilter("")} />
      </AfterFirstPaint>
    </section>
  );
}

function IdentitiesSkeleton() {
  return (
    <div className="grid gap-3" aria-busy="true">
      <span className="sr-only" role="status">
        Loading identities…
      </span>
      <div className="flex justify-between">
        <Skeleton className="h-9 w-72" />
        <Skeleton className="h-8 w-36" />
      </div>
      <TableSkeleton />
    </div>
  );
}

function TableSkeleton() {
  return (
    <div className="overflow-hidden rounded-xl border border-border bg-card">
      <div className="h-9 border-b border-border bg-surface" />
      {[0, 1, 2, 3, 4].map((row) => (
        <div key={row} className="flex h-11 items-center gap-6 border-b border-border px-4 last:border-0">
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-4 w-16" />
          <Skeleton className="h-4 w-24" />
          <Skeleton className="ml-auto h-4 w-20" />
        </div>
      ))}
    </div>
  );
}
