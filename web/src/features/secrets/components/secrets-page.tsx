import type { Environment } from "@keyhold/contract";
import { useSuspenseQuery } from "@tanstack/react-query";
import { Columns3, History, Layers, Plus } from "lucide-react";
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { ErrorPanel } from "@/components/errors/error-panel";
import { QueryBoundary } from "@/components/errors/query-boundary";
import { AfterFirstPaint } from "@/components/layout/after-first-paint";
import { PageHeader } from "@/components/layout/page-header";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { buttonVariants } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { paths } from "@/config/paths";
import { withPlace } from "@/config/place";
import { cn } from "@/lib/cn";
import type { SecretFolder } from "../api";
import { FileActions } from "../import-export/components/file-actions";
import { secretQueries } from "../queries";
import { useStaged } from "../staging/use-staged";
import { EnvironmentSwitcher, FolderBreadcrumbs } from "./folder-navigation";
import { FoldersBar } from "./folders-bar";
import { SecretsList } from "./secrets-list";
import { StagingContext, useStaging } from "./staging-context";
import { type SecretGuards, useSecretGuards } from "./use-secret-guards";
import { useSecretLocation } from "./use-secret-location";

// The create dialog (its form and validation) loads just after the page's first paint.
const CreateSecretDialog = lazy(async () => ({ default: (await import("./create-secret-dialog")).CreateSecretDialog }));
// The pending-changes bar (its save and review) loads when the first change is staged.
const StagedChangesBar = lazy(async () => ({ default: (await import("./staged-changes-bar")).StagedChangesBar }));
// The drawer (its editor, version history and diff) loads when a secret is first opened.
const SecretDrawer = lazy(async () => ({ default: (await import("../drawer/secret-drawer")).SecretDrawer }));

/**
 * The page's header, the same while the environments load as after: the first paint already
 * shows it whole (it is the page's largest text), and the secrets arriving later change nothing in it.
 */
function SecretsHeader({
  createDenied,
  onCreate,
  files,
}: {
  createDenied: string | undefined;
  onCreate?: () => void;
  /** The folder's import and export buttons. */
  files?: ReactNode;
}) {
  return (
    <PageHeader
      title="Secrets"
      description="Keys and values by environment and folder. Values stay masked until you reveal them."
      actions={
        <>
          {files}
          <PermittedButton variant="primary" size="sm" deniedReason={createDenied} onClick={onCreate}>
            <Plus aria-hidden />
            Create secret
          </PermittedButton>
        </>
      }
    />
  );
}

/** A project's secrets in one environment and folder; environment, folder, search and tag are in the URL. */
export function SecretsPage() {
  const projectId = useParams().projectId ?? "";
  return (
    <QueryBoundary
      loading={<PageSkeleton />}
      error={({ error, retry }) => (
        <div className="grid gap-6">
          <PageHeader title="Secrets" />
          <ErrorPanel error={error} title="Could not load the project's environments" onRetry={retry} />
        </div>
      )}
    >
      <SecretsInProject projectId={projectId} />
    </QueryBoundary>
  );
}

function SecretsInProject({ projectId }: { projectId: string }) {
  const { data: environments } = useSuspenseQuery(secretQueries.environments(projectId));
  const place = useSecretLocation();
  const slug = place.location.environment ?? environments[0]?.slug;
  const environment = environments.find((env) => env.slug === slug);
  // Pending changes belong to the project's page, not one folder: moving between environments
  // and folders keeps them; leaving the page asks first.
  const staging = useStaged();

  if (environments.length === 0) {
    return (
      <div className="grid gap-6">
        <PageHeader title="Secrets" />
        <EmptyState
          icon={Layers}
          title="This project has no environments"
          description="Secrets live in an environment. Add one on the project's overview first."
          action={
            <Link to={paths.projectHome.href(projectId)} className={buttonVariants({ size: "sm" })}>
              Go to the overview
            </Link>
          }
        />
      </div>
    );
  }
  if (!environment) {
    return (
      <div className="grid gap-6">
        <PageHeader title="Secrets" />
        <EmptyState
          icon={Layers}
          title={`There is no environment “${slug}”`}
          description="This project's environments are listed below."
          action={<EnvironmentSwitcher environments={environments} current={undefined} href={place.href} />}
        />
      </div>
    );
  }
  return (
    <StagingContext.Provider value={staging}>
      <SecretsInFolder projectId={projectId} environments={environments} environment={environment} place={place} />
    </StagingContext.Provider>
  );
}

interface SecretsInFolderProps {
  projectId: string;
  environments: Environment[];
  environment: Environment;
  place: ReturnType<typeof useSecretLocation>;
}

function SecretsInFolder({ projectId, environments, environment, place }: SecretsInFolderProps) {
  const { location, href, update } = place;
  // The same object while the place is the same, so the memoised table and rows skip renders
  // that only the URL's search text caused.
  const folder = useMemo<SecretFolder>(
    () => ({ projectId, environment: environment.slug, secretPath: location.secretPath }),
    [projectId, environment.slug, location.secretPath],
  );
  const guards = useSecretGuards(projectId);
  const [creating, setCreating] = useState(false);
  useCreateFromUrl(guards, setCreating);
  // The open secret is in the URL (`?secret=KEY`), so it can be linked to. Its key stays set
  // while the drawer closes, so the drawer keeps its content during the animation.
  const [opened, setOpened] = useState(location.secret);
  if (location.secret !== undefined && location.secret !== opened) setOpened(location.secret);
  const openSecret = useCallback((secretKey: string) => update({ secret: secretKey }), [update]);

  return (
    <div className="grid min-w-0 gap-5">
      <SecretsHeader
        createDenied={guards.create}
        onCreate={() => setCreating(true)}
        files={<FileActions folder={folder} guards={guards} />}
      />
      <div className="flex flex-wrap items-center gap-x-4 gap-y-3">
        <EnvironmentSwitcher environments={environments} current={environment.slug} href={href} />
        <FolderBreadcrumbs environment={environment} secretPath={location.secretPath} href={href} />
        <Link
          to={withPlace(paths.project.secretsOverview.href(projectId), { secretPath: location.secretPath })}
          className={cn(buttonVariants({ variant: "ghost", size: "sm" }), "ml-auto text-muted-foreground")}
        >
          <Columns3 aria-hidden />
          Compare environments
        </Link>
        <Link
          to={withPlace(paths.project.secretHistory.href(projectId), {
            environment: environment.slug,
            secretPath: location.secretPath,
          })}
          className={cn(buttonVariants({ variant: "ghost", size: "sm" }), "text-muted-foreground")}
        >
          <History aria-hidden />
          History
        </Link>
      </div>
      <FoldersBar folder={folder} guards={guards} href={href} />
      <SecretsList
        folder={folder}
        location={location}
        href={href}
        update={update}
        guards={guards}
        onOpen={openSecret}
      />
      <PendingChanges projectId={projectId} />
      <AfterFirstPaint fallback={null}>
        <CreateSecretDialog folder={folder} open={creating} onOpenChange={setCreating} />
      </AfterFirstPaint>
      {opened ? (
        <Suspense fallback={null}>
          <SecretDrawer
            projectId={projectId}
            environment={environment.slug}
            secretPath={location.secretPath}
            secretKey={opened}
            open={location.secret !== undefined}
            onOpenChange={(open) => update({ secret: open ? opened : undefined })}
            onRenamed={(secretKey) => update({ secret: secretKey })}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

/**
 * `?create=secret` (the command palette's "Create secret in …") opens the create dialog once the
 * caller's rules are known, if they allow creating; the parameter is then dropped from the URL.
 */
function useCreateFromUrl(guards: SecretGuards, setCreating: (creating: boolean) => void) {
  const [params, setParams] = useSearchParams();
  const asked = params.get("create") === "secret";
  useEffect(() => {
    if (!asked || guards.checking) return;
    if (guards.create === undefined) setCreating(true);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete("create");
        return next;
      },
      { replace: true },
    );
  }, [asked, guards.checking, guards.create, setCreating, setParams]);
}

/** The bar, once anything is staged (it stays while a failed save's review is open). */
function PendingChanges({ projectId }: { projectId: string }) {
  const { count } = useStaging();
  const [used, setUsed] = useState(false);
  if (count > 0 && !used) setUsed(true);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <StagedChangesBar projectId={projectId} />
    </Suspense>
  );
}

function PageSkeleton() {
  return (
    <div className="grid gap-5" aria-busy="true">
      <span className="sr-only" role="status">
        Loading secrets…
      </span>
      <SecretsHeader createDenied="The project's environments are still loading." />
      <Skeleton className="h-8 w-72" />
      <div className="overflow-hidden rounded-xl border border-border bg-card">
        <div className="h-9 border-b border-border bg-surface" />
        {[0, 1, 2, 3, 4].map((row) => (
          <div key={row} className="flex h-12 items-center gap-6 border-b border-border px-4 last:border-0">
            <Skeleton className="h-4 w-48" />
            <Skeleton className="h-4 w-40" />
            <Skeleton className="ml-auto h-4 w-24" />
          </div>
        ))}
      </div>
    </div>
  );
}
