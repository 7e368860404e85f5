import type { Environment, FolderCommit } from "@keyhold/contract";
import { useSuspenseInfiniteQuery, useSuspenseQuery } from "@tanstack/react-query";
import { ArrowLeft, History, Layers } from "lucide-react";
import { useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { ErrorPanel } from "@/components/errors/error-panel";
import { QueryBoundary } from "@/components/errors/query-boundary";
import { PageHeader } from "@/components/layout/page-header";
import { Button, buttonVariants } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { paths } from "@/config/paths";
import { readPlace, withPlace, writePlace } from "@/config/place";
import { cn } from "@/lib/cn";
import type { HistoryFolder } from "../api";
import { commitsUnavailable } from "../history-model";
import { historyQueries } from "../queries";
import { CommitRow } from "./commit-row";
import { RollbackPreview } from "./rollback-preview";
import { type RollbackResult, RollbackResultNote } from "./rollback-result";
import { SnapshotFallback } from "./snapshot-fallback";

const description =
  "Every change to this folder, newest first. Preview a rollback to any point and roll back in one step; the rollback is itself a change you can undo.";

/** A folder's history: the commits, what each changed, and a rollback with its preview. Place and commit are in the URL. */
export function SecretHistoryPage() {
  const projectId = useParams().projectId ?? "";
  return (
    <div className="grid min-w-0 gap-5">
      <QueryBoundary
        loading={<PageSkeleton />}
        error={({ error, retry }) => (
          <>
            <PageHeader title="Folder history" description={description} />
            <ErrorPanel error={error} title="Could not load the project's environments" onRetry={retry} />
          </>
        )}
      >
        <HistoryInProject projectId={projectId} />
      </QueryBoundary>
    </div>
  );
}

function HistoryInProject({ projectId }: { projectId: string }) {
  const { data: environments } = useSuspenseQuery(historyQueries.environments(projectId));
  const [params] = useSearchParams();
  const place = readPlace(params);
  const environment = environments.find((env) => env.slug === place.environment) ?? environments[0];
  if (!environment) {
    return (
      <>
        <PageHeader title="Folder history" description={description} />
        <EmptyState
          icon={Layers}
          title="This project has no environments"
          description="History is kept per folder of an environment. Add an environment on the project's overview first."
        />
      </>
    );
  }
  const folder: HistoryFolder = { projectId, environment: environment.slug, secretPath: place.secretPath ?? "/" };
  return <HistoryOfFolder folder={folder} environments={environments} />;
}

function HistoryOfFolder({ folder, environments }: { folder: HistoryFolder; environments: readonly Environment[] }) {
  const [result, setResult] = useState<RollbackResult | undefined>(undefined);
  const secretsHref = withPlace(paths.project.secrets.href(folder.projectId), {
    environment: folder.environment,
    secretPath: folder.secretPath,
  });
  return (
    <>
      <PageHeader
        title="Folder history"
        description={description}
        actions={
          <Link to={secretsHref} className={buttonVariants({ size: "sm" })}>
            <ArrowLeft aria-hidden />
            Back to secrets
          </Link>
        }
      />
      <FolderPlace folder={folder} environments={environments} />
      {result ? <RollbackResultNote result={result} onDismiss={() => setResult(undefined)} /> : null}
      <QueryBoundary
        key={`${folder.environment}:${folder.secretPath}`}
        loading={<ListSkeleton />}
        error={({ error, retry }) => {
          const reason = commitsUnavailable(error);
          return reason ? (
            <SnapshotFallback folder={folder} reason={reason} onRolledBack={setResult} />
          ) : (
            <ErrorPanel error={error} title="Could not load the folder's history" onRetry={retry} />
          );
        }}
      >
        <Commits folder={folder} onRolledBack={setResult} />
      </QueryBoundary>
    </>
  );
}

/** The environment (one link each) and the folder's path, as on the secrets page. */
function FolderPlace({ folder, environments }: { folder: HistoryFolder; environments: readonly Environment[] }) {
  const href = (environment: string, secretPath: string) =>
    `?${writePlace(new URLSearchParams(), { environment, secretPath }).toString()}`;
  const segments = folder.secretPath.split("/").filter(Boolean);
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
      <nav aria-label="Environment" className="flex flex-wrap gap-1 rounded-lg border border-border bg-card p-0.5">
        {environments.map((env) => (
          <Link
            key={env.slug}
            to={href(env.slug, "/")}
            aria-current={env.slug === folder.environment ? "page" : undefined}
            className={cn(
              "rounded-md px-2.5 py-1 text-[13px] font-medium outline-none focus-visible:ring-2 focus-visible:ring-ring",
              env.slug === folder.environment
                ? "bg-accent-subtle text-accent-subtle-foreground"
                : "text-muted-foreground hover:bg-hover hover:text-foreground",
            )}
          >
            {env.name}
          </Link>
        ))}
      </nav>
      <nav aria-label="Folder" className="flex min-w-0 flex-wrap items-center gap-1 font-mono text-[13px]">
        <span className="font-sans text-muted-foreground">Folder</span>
        <Link to={href(folder.environment, "/")} className="rounded px-1 text-muted-foreground hover:text-foreground">
          /
        </Link>
        {segments.map((name, i) => {
          const path = `/${segments.slice(0, i + 1).join("/")}`;
          const last = i === segments.length - 1;
          return (
            <span key={path} className="flex items-center gap-1">
              {i > 0 ? <span className="text-muted-foreground">/</span> : null}
              <Link
                to={href(folder.environment, path)}
                aria-current={last ? "page" : undefined}
                className={cn("rounded px-1", last ? "text-foreground" : "text-muted-foreground hover:text-foreground")}
              >
                {name}
              </Link>
            </span>
          );
        })}
      </nav>
    </div>
  );
}

function Commits({ folder, onRolledBack }: { folder: HistoryFolder; onRolledBack: (result: RollbackResult) => void }) {
  const query = useSuspenseInfiniteQuery(historyQueries.commits(folder));
  const [params, setParams] = useSearchParams();
  const commits = query.data.pages.flatMap((page) => page.commits);
  const total = query.data.pages[0]?.total ?? 0;
  const previewing = commits.find((c) => c.id === params.get("commit"));
  const latestId = commits[0]?.id;
  const setPreview = (commit: FolderCommit | undefined) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (commit) next.set("commit", commit.id);
      else next.delete("commit");
      return next;
    });

  if (commits.length === 0) {
    return (
      <EmptyState
        icon={History}
        title="No changes recorded yet"
        description="Each change to this folder's secrets, sub-folders or imports appears here, so the folder can be put back as it was."
      />
    );
  }
  return (
    <section aria-labelledby="commits-heading" className="grid gap-2">
      <h2 id="commits-heading" className="text-sm font-semibold">
        {total === 1 ? "1 change" : `${total} changes`}, newest first
      </h2>
      <ol className="overflow-hidden rounded-xl border border-border bg-card shadow-xs">
        {commits.map((commit) => (
          <CommitRow
            key={commit.id}
            folder={folder}
            commit={commit}
            isLatest={commit.id === latestId}
            onPreview={() => setPreview(commit)}
          />
        ))}
      </ol>
      {query.hasNextPage ? (
        <Button
          size="sm"
          className="justify-self-center"
          onClick={() => void query.fetchNextPage()}
          disabled={query.isFetchingNextPage}
          aria-busy={query.isFetchingNextPage || undefined}
        >
          {query.isFetchingNextPage ? "Loading…" : "Show older changes"}
        </Button>
      ) : null}
      {previewing ? (
        <RollbackPreview
          folder={folder}
          commit={previewing}
          onClose={() => setPreview(undefined)}
          onRolledBack={(result) => {
            setPreview(undefined);
            onRolledBack(result);
          }}
        />
      ) : null}
    </section>
  );
}

function ListSkeleton() {
  return (
    <div className="grid gap-2" aria-busy="true">
      <span className="sr-only" role="status">
        Loading the folder's history…
      </span>
      <Skeleton className="h-4 w-40" />
      <div className="overflow-hidden rounded-xl border border-border bg-card">
        {[0, 1, 2, 3].map((row) => (
          <div key={row} className="flex h-16 items-center gap-6 border-b border-border px-4 last:border-0">
            <Skeleton className="h-4 w-48" />
            <Skeleton className="h-4 w-32" />
            <Skeleton className="ml-auto h-8 w-32" />
          </div>
        ))}
      </div>
    </div>
  );
}

function PageSkeleton() {
  return (
    <>
      <PageHeader title="Folder history" description={description} />
      <Skeleton className="h-8 w-72" />
      <ListSkeleton />
    </>
  );
}
