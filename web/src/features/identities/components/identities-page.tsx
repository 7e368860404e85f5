import type { IdentityMembership } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { ChevronLeft, ChevronRight, Plus, Search, SearchX, UsersRound } from "lucide-react";
import { lazy, type ReactNode } from "react";
import { Link } from "react-router";
import { ErrorPanel } from "@/components/errors/error-panel";
import { AfterFirstPaint } from "@/components/layout/after-first-paint";
import { PageHeader } from "@/components/layout/page-header";
import { Button, buttonVariants } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { IDENTITY_PAGE_SIZE, type IdentitySearch, pageRange } from "../identity-search";
import { identityQueries } from "../queries";
import { useIdentitySearch } from "./use-identity-search";

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
      <IdentitiesContent />
    </div>
  );
}

/**
 * One page of the organisation's identities at a time, searched and paged by the service; the
 * search text and page live in the URL, and the page on screen stays until the next has arrived.
 */
function IdentitiesContent() {
  const { search, text, setText, problem, pageHref } = useIdentitySearch();
  const query = useQuery(identityQueries.list(search));

  if (query.isPending) return <IdentitiesSkeleton />;
  const everything = search.text === "" && search.page === 1;
  if (query.data?.totalCount === 0 && everything) {
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
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid w-full max-w-xs gap-1">
          <div className="relative">
            <label htmlFor="identity-search" className="sr-only">
              Search identities
            </label>
            <Search
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              id="identity-search"
              type="search"
              value={text}
              onChange={(event) => setText(event.target.value)}
              placeholder="Search by name"
              className="pl-9"
              autoComplete="off"
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? "identity-search-problem" : undefined}
            />
          </div>
          {problem ? (
            <p id="identity-search-problem" className="text-[13px] text-destructive-subtle-foreground">
              {problem}
            </p>
          ) : null}
        </div>
        <CreateIdentity />
      </div>
      {query.isError ? (
        <ErrorPanel error={query.error} title="Could not load identities" onRetry={() => void query.refetch()} />
      ) : (
        <IdentitiesPageOf
          search={search}
          page={query.data}
          stale={query.isPlaceholderData}
          pageHref={pageHref}
          onClear={() => setText("")}
        />
      )}
    </section>
  );
}

interface PageOfProps {
  search: IdentitySearch;
  page: { identities: IdentityMembership[]; totalCount: number };
  stale: boolean;
  pageHref: (page: number) => string;
  onClear: () => void;
}

function IdentitiesPageOf({ search, page, stale, pageHref, onClear }: PageOfProps) {
  const { identities, totalCount } = page;
  if (totalCount === 0) {
    return (
      <EmptyState
        icon={SearchX}
        title="No identities match"
        description={<>No identity’s name contains “{search.text}”.</>}
        action={
          <Button size="sm" onClick={onClear}>
            Clear search
          </Button>
        }
      />
    );
  }
  if (identities.length === 0) {
    return (
      <EmptyState
        icon={SearchX}
        title={`There is no page ${search.page}`}
        description={`${totalCount === 1 ? "1 identity fits" : `${totalCount} identities fit`} on fewer pages.`}
        action={
          <Link to={pageHref(1)} className={buttonVariants({ size: "sm" })}>
            Go to the first page
          </Link>
        }
      />
    );
  }
  const lastPage = Math.max(1, Math.ceil(totalCount / IDENTITY_PAGE_SIZE));
  return (
    <>
      <AfterFirstPaint fallback={<TableSkeleton />}>
        <IdentitiesTable identities={identities} stale={stale} />
      </AfterFirstPaint>
      <nav aria-label="Pagination" className="flex items-center justify-between gap-3">
        <p className="text-[13px] text-muted-foreground tabular-nums" aria-live="polite">
          {pageRange(search, identities.length, totalCount)}
        </p>
        <div className="flex items-center gap-2">
          <PageLink to={pageHref(search.page - 1)} disabled={search.page <= 1} label="Previous page">
            <ChevronLeft />
            Previous
          </PageLink>
          <PageLink to={pageHref(search.page + 1)} disabled={search.page >= lastPage} label="Next page">
            Next
            <ChevronRight />
          </PageLink>
        </div>
      </nav>
    </>
  );
}

/** A link to another page; where there is none, a disabled button holds its place. */
function PageLink({
  to,
  disabled,
  label,
  children,
}: {
  to: string;
  disabled: boolean;
  label: string;
  children: ReactNode;
}) {
  if (disabled) {
    return (
      <Button size="sm" disabled aria-label={label}>
        {children}
      </Button>
    );
  }
  return (
    <Link to={to} className={buttonVariants({ size: "sm" })} aria-label={label}>
      {children}
    </Link>
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
