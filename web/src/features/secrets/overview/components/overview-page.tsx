import type { Environment } from "@keyhold/contract";
import { useQueries, useSuspenseQuery } from "@tanstack/react-query";
import { FolderX, KeyRound, Layers, Plus, Search, SearchX, TableProperties } from "lucide-react";
import { lazy, type ReactNode, Suspense, useCallback, useMemo, useState } from "react";
import { Link, useParams } from "react-router";
import { ErrorPanel } from "@/components/errors/error-panel";
import { QueryBoundary } from "@/components/errors/query-boundary";
import { PageHeader } from "@/components/layout/page-header";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { Button, buttonVariants } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { paths } from "@/config/paths";
import { withPlace } from "@/config/place";
import { isApiError } from "@/lib/api-error";
import type { SecretFolder } from "../../api";
import { StagedChangesBar } from "../../components/staged-changes-bar";
import { StagingContext } from "../../components/staging-context";
import { useSecretGuards } from "../../components/use-secret-guards";
import { useSecretSearch } from "../../components/use-secret-location";
import { secretQueries } from "../../queries";
import { useStaged } from "../../staging/use-staged";
import {
  type EnvironmentListing,
  filterOverview,
  type OverviewFilter,
  type OverviewFolder,
  type OverviewSecret,
  overviewCounts,
  overviewFolders,
  overviewRows,
} from "../overview-rows";
import { overviewQueries } from "../queries";
import { useOverviewLocation } from "../use-overview-location";
import { OverviewFolderPath } from "./overview-folder-path";
import { type ColumnState, OverviewTable } from "./overview-table";

// The dialogs (forms, validation) load when first opened.
const AddKeyDialog = lazy(async () => ({ default: (await import("./add-key-dialog")).AddKeyDialog }));
const CopyValueDialog = lazy(async () => ({ default: (await import("./copy-value-dialog")).CopyValueDialog }));

const count = new Intl.NumberFormat("en");
const NO_FOLDERS: readonly OverviewFolder[] = [];

function OverviewHeader({ actions }: { actions?: ReactNode }) {
  return (
    <PageHeader
      title="Secrets overview"
      description="A folder's keys across every environment: what is missing where, and which values differ. Values stay masked until you reveal them."
      actions={actions}
    />
  );
}

/** A folder's keys (rows) across the project's environments (columns); the folder, search and filter are in the URL. */
export function OverviewPage() {
  const projectId = useParams().projectId ?? "";
  return (
    <QueryBoundary
      loading={<PageSkeleton />}
      error={({ error, retry }) => (
        <div className="grid gap-6">
          <OverviewHeader />
          <ErrorPanel error={error} title="Could not load the project's environments" onRetry={retry} />
        </div>
      )}
    >
      <OverviewInProject projectId={projectId} />
    </QueryBoundary>
  );
}

function OverviewInProject({ projectId }: { projectId: string }) {
  const { data: environments } = useSuspenseQuery(secretQueries.environments(projectId));
  if (environments.length === 0) {
    return (
      <div className="grid gap-6">
        <OverviewHeader />
        <EmptyState
          icon={Layers}
          title="This project has no environments"
          description="Secrets live in an environment. Add one on the project's overview first."
          action={
            <Link to={paths.projectHome.href(projectId)} className={buttonVariants({ size: "sm" })}>
              Go to the project
            </Link>
          }
        />
      </div>
    );
  }
  return <OverviewOfFolder projectId={projectId} environments={environments} />;
}

/** Each environment's folder as read; a 404 means the folder is not there. Stable while the answers are. */
function combineListings(
  results: readonly { data?: OverviewSecret[] | undefined; error: unknown; isError: boolean; refetch: () => unknown }[],
) {
  return {
    listings: results.map((query): EnvironmentListing => {
      if (query.data !== undefined) return { state: "loaded", secrets: query.data };
      if (query.isError) return { state: isApiError(query.error, 404) ? "no-folder" : "error" };
      return { state: "pending" };
    }),
    errors: results.map((query) => query.error),
    refetch: () => {
      for (const query of results) if (query.isError) void query.refetch();
    },
  };
}

function combineFolderNames(results: readonly { data?: readonly { name: string }[] | undefined; isError: boolean }[]) {
  return results.map((query) =>
    query.data ? query.data.map((folder) => folder.name) : query.isError ? ("error" as const) : undefined,
  );
}

interface Dialogs {
  add?: { secretKey: string; environments: string[] };
  copy?: { secretKey: string; from: string };
}

function OverviewOfFolder({ projectId, environments }: { projectId: string; environments: Environment[] }) {
  const { location, update, folderHref } = useOverviewLocation();
  const { secretPath } = location;
  const guards = useSecretGuards(projectId);
  // Cell edits are staged and saved together; leaving the page with some pending asks first.
  const staging = useStaged();
  const slugs = useMemo(() => environments.map((env) => env.slug), [environments]);
  const folders = useMemo(
    () => slugs.map((environment): SecretFolder => ({ projectId, environment, secretPath })),
    [projectId, slugs, secretPath],
  );
  const { listings, errors, refetch } = useQueries({
    queries: folders.map((folder) => overviewQueries.secrets(folder)),
    combine: combineListings,
  });
  const folderNames = useQueries({
    queries: folders.map((folder) => secretQueries.folders(folder)),
    combine: combineFolderNames,
  });
  const rows = useMemo(() => overviewRows(slugs, listings), [slugs, listings]);
  const folderRows = useMemo(
    () =>
      overviewFolders(
        folderNames.map((names, env) =>
          Array.isArray(names)
            ? { state: "loaded" as const, names }
            : {
                state: listings[env]?.state === "no-folder" ? ("no-folder" as const) : (names ?? ("pending" as const)),
              },
        ),
      ),
    [folderNames, listings],
  );

  const { text: search, setText } = useSecretSearch(location.search);
  const shown = useMemo(() => filterOverview(rows, search, location.filter), [rows, search, location.filter]);
  const counts = useMemo(() => overviewCounts(rows), [rows]);
  const filtered = search.trim() !== "" || location.filter !== "all";

  const columns = useMemo(
    () =>
      environments.map((environment, i): ColumnState => {
        const listing = listings[i];
        return {
          environment,
          state: listing?.state ?? "pending",
          keyCount: listing?.state === "loaded" ? listing.secrets.length : 0,
          error: errors[i],
          retry: refetch,
        };
      }),
    [environments, listings, errors, refetch],
  );

  // What a dialog shows stays set while it closes, so the closing dialog keeps its text.
  const [dialogs, setDialogs] = useState<Dialogs>({});
  const [addOpen, setAddOpen] = useState(false);
  const [copyOpen, setCopyOpen] = useState(false);
  const openAdd = useCallback(
    (secretKey: string, missingIn: readonly string[]) => {
      setDialogs((current) => ({ ...current, add: { secretKey, environments: [...missingIn] } }));
      setAddOpen(true);
    },
    [setAddOpen],
  );
  const openCopy = useCallback(
    (secretKey: string, from: string) => {
      setDialogs((current) => ({ ...current, copy: { secretKey, from } }));
      setCopyOpen(true);
    },
    [setCopyOpen],
  );

  const allRead = listings.every(({ state }) => state === "loaded" || state === "no-folder");
  const allFailed = listings.every(({ state }) => state === "error");
  const nowhere = listings.every(({ state }) => state === "no-folder");
  const empty = allRead && rows.length === 0 && folderRows.length === 0;

  const secretsHref = withPlace(paths.project.secrets.href(projectId), { secretPath });
  return (
    <StagingContext.Provider value={staging}>
      <div className="grid min-w-0 gap-5">
        <OverviewHeader
          actions={
            <>
              <Link to={secretsHref} className={buttonVariants({ size: "sm" })}>
                <KeyRound aria-hidden />
                Secrets by environment
              </Link>
              <PermittedButton
                variant="primary"
                size="sm"
                deniedReason={guards.create}
                onClick={() => openAdd("", slugs)}
              >
                <Plus aria-hidden />
                Add key
              </PermittedButton>
            </>
          }
        />
        <OverviewFolderPath secretPath={secretPath} href={folderHref} />
        <section aria-label="Keys across environments" className="grid min-w-0 gap-3">
          <div className="flex flex-wrap items-center gap-3">
            <div className="relative w-full max-w-xs">
              <label htmlFor="overview-search" className="sr-only">
                Search keys
              </label>
              <Search
                aria-hidden
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
              />
              <Input
                id="overview-search"
                type="search"
                value={search}
                onChange={(event) => setText(event.target.value)}
                placeholder="Search by key"
                className="pl-9"
                autoComplete="off"
                spellCheck={false}
              />
            </div>
            <label className="flex items-center gap-2 text-[13px] text-muted-foreground">
              Show
              <Select
                value={location.filter}
                onChange={(event) => update({ filter: event.target.value as OverviewFilter }, { replace: true })}
                className="min-w-44"
              >
                <option value="all">All keys</option>
                <option value="missing">Missing somewhere ({count.format(counts.missing)})</option>
                <option value="differ">Values differ ({count.format(counts.differ)})</option>
              </Select>
            </label>
            {allRead ? (
              <p className="ml-auto text-[13px] text-muted-foreground tabular-nums" role="status">
                {filtered
                  ? `${count.format(shown.length)} of ${count.format(rows.length)} ${rows.length === 1 ? "key" : "keys"}`
                  : `${count.format(rows.length)} ${rows.length === 1 ? "key" : "keys"}`}
                {counts.missing > 0 ? `, ${count.format(counts.missing)} missing somewhere` : null}
              </p>
            ) : null}
          </div>
          {allFailed ? (
            <ErrorPanel error={errors[0]} title="Could not load the secrets" onRetry={refetch} />
          ) : nowhere ? (
            <EmptyState
              icon={FolderX}
              title={`There is no folder ${secretPath} in any environment`}
              description="It may have been deleted or renamed."
              action={
                <Link to={folderHref("/")} className={buttonVariants({ size: "sm" })}>
                  Go to the root folder
                </Link>
              }
            />
          ) : empty ? (
            <EmptyState
              icon={TableProperties}
              title="No secrets in this folder in any environment"
              description="Add a key to one or more environments at once."
              action={
                <PermittedButton size="sm" deniedReason={guards.create} onClick={() => openAdd("", slugs)}>
                  <Plus aria-hidden />
                  Add key
                </PermittedButton>
              }
            />
          ) : allRead && shown.length === 0 && filtered && folderRows.length === 0 ? (
            <NoMatch
              search={search}
              onClear={() => {
                setText("");
                update({ search: "", filter: "all" });
              }}
            />
          ) : (
            <>
              <OverviewTable
                secretPath={secretPath}
                folders={folders}
                columns={columns}
                rows={shown}
                subfolders={filtered ? NO_FOLDERS : folderRows}
                folderHref={folderHref}
                guards={guards}
                onCopy={openCopy}
              />
              <Legend />
            </>
          )}
        </section>
        <StagedChangesBar projectId={projectId} />
        {dialogs.add ? (
          <Suspense fallback={null}>
            <AddKeyDialog
              projectId={projectId}
              secretPath={secretPath}
              environments={environments}
              rows={rows}
              initial={dialogs.add}
              open={addOpen}
              onOpenChange={setAddOpen}
            />
          </Suspense>
        ) : null}
        {dialogs.copy ? (
          <Suspense fallback={null}>
            <CopyValueDialog
              projectId={projectId}
              secretPath={secretPath}
              environments={environments}
              row={rows.find((row) => row.secretKey === dialogs.copy?.secretKey)}
              initial={dialogs.copy}
              open={copyOpen}
              onOpenChange={setCopyOpen}
            />
          </Suspense>
        ) : null}
      </div>
    </StagingContext.Provider>
  );
}

function NoMatch({ search, onClear }: { search: string; onClear: () => void }) {
  return (
    <EmptyState
      icon={SearchX}
      title="No keys match"
      description={
        search.trim() ? `No key here contains “${search.trim()}” with this filter.` : "No key here matches this filter."
      }
      action={
        <Button size="sm" onClick={onClear}>
          Clear filters
        </Button>
      }
    />
  );
}

/** What the marks mean, once, under the table. */
function Legend() {
  return (
    <p className="text-[13px] text-muted-foreground">
      Values are compared by digest, never read: cells with the same letter hold the same value. “Not compared” means
      the server sent no digest (an older server, or you may not read those values).
    </p>
  );
}

function PageSkeleton() {
  return (
    <div className="grid gap-5" aria-busy="true">
      <span className="sr-only" role="status">
        Loading the overview…
      </span>
      <OverviewHeader />
      <Skeleton className="h-8 w-72" />
      <div className="overflow-hidden rounded-xl border border-border bg-card">
        <div className="h-11 border-b border-border bg-surface" />
        {[0, 1, 2, 3, 4].map((row) => (
          <div key={row} className="flex h-14 items-center gap-6 border-b border-border px-4 last:border-0">
            <Skeleton className="h-4 w-48" />
            <Skeleton className="h-4 w-32" />
            <Skeleton className="h-4 w-32" />
            <Skeleton className="h-4 w-32" />
          </div>
        ))}
      </div>
    </div>
  );
}
