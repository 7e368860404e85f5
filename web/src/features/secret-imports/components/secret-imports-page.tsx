import type { Environment } from "@keyhold/contract";
import { useQuery, useSuspenseQuery } from "@tanstack/react-query";
import { Import, Plus } from "lucide-react";
import { useState } from "react";
import { ErrorPanel } from "@/components/errors/error-panel";
import { QueryBoundary } from "@/components/errors/query-boundary";
import { PageHeader } from "@/components/layout/page-header";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useProjectAbility } from "@/hooks/use-project-ability";
import { errorSummary } from "@/lib/describe-error";
import type { ImportingFolder } from "../api";
import { type ImportChange, previewImportChange } from "../change-preview";
import { providedKeys } from "../provided-keys";
import { secretImportQueries } from "../queries";
import { AddImportDialog } from "./add-import-dialog";
import { FolderPicker } from "./folder-picker";
import { ImportsList } from "./imports-list";
import { SubFolders } from "./sub-folders";
import { useImportLocation, useProjectId } from "./use-import-location";
import { useMissingSources } from "./use-missing-sources";

const description =
  "Read other folders' secrets here. The folder's own secrets win; among imports, the later one wins.";

/** A folder's secret imports: which folder (in the URL), its imports in order, and the keys each provides. */
export function SecretImportsPage() {
  return (
    <div className="grid gap-6">
      <QueryBoundary
        loading={<PageSkeleton />}
        error={({ error, retry }) => (
          <>
            <PageHeader title="Secret imports" description={description} />
            <ErrorPanel error={error} title="Could not load the project's environments" onRetry={retry} />
          </>
        )}
      >
        <ImportsPageBody />
      </QueryBoundary>
    </div>
  );
}

function ImportsPageBody() {
  const projectId = useProjectId();
  const { data: environments } = useSuspenseQuery(secretImportQueries.environments(projectId));
  const { folder, go } = useImportLocation(projectId, environments);
  const [adding, setAdding] = useState(false);
  const ability = useProjectAbility(projectId);

  if (!folder) {
    return (
      <>
        <PageHeader title="Secret imports" description={description} />
        <EmptyState
          icon={Import}
          title="This project has no environments"
          description="Imports live in an environment's folders. Add an environment on the project's overview first."
        />
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="Secret imports"
        description={description}
        actions={
          <PermittedButton
            variant="primary"
            size="sm"
            deniedReason={ability.reason("create", "secret-imports")}
            onClick={() => setAdding(true)}
          >
            <Plus aria-hidden />
            Add import
          </PermittedButton>
        }
      />
      <div className="grid gap-2">
        <FolderPicker key={folder.path} environments={environments} folder={folder} onChange={go} />
        <SubFolders folder={folder} onOpen={(path) => go({ environment: folder.environment, path })} />
      </div>
      <QueryBoundary
        loading={<ListSkeleton />}
        error={({ error, retry }) => <ErrorPanel error={error} title="Could not load the imports" onRetry={retry} />}
      >
        <FolderImports folder={folder} environments={environments} adding={adding} onAddingChange={setAdding} />
      </QueryBoundary>
    </>
  );
}

interface FolderImportsProps {
  folder: ImportingFolder;
  environments: readonly Environment[];
  adding: boolean;
  onAddingChange: (open: boolean) => void;
}

function FolderImports({ folder, environments, adding, onAddingChange }: FolderImportsProps) {
  const { data: imports } = useSuspenseQuery(secretImportQueries.list(folder));
  // The keys come from a second call; the list does not wait for it.
  const provided = useQuery({ ...secretImportQueries.provided(folder), enabled: imports.length > 0 });
  const keys = provided.data ? providedKeys(imports, provided.data.imports, provided.data.localKeys) : undefined;
  const missing = useMissingSources(folder.projectId, imports);
  const preview = (change: ImportChange) =>
    provided.data && previewImportChange(imports, provided.data.imports, provided.data.localKeys, change);
  const ability = useProjectAbility(folder.projectId);

  return (
    <section aria-label="Imports" className="grid gap-2">
      {imports.length === 0 ? (
        <EmptyState
          icon={Import}
          title="No imports in this folder"
          description={
            <>
              Import another environment&apos;s or folder&apos;s secrets to read them in{" "}
              <code className="font-mono text-xs text-foreground">
                {folder.environment}:{folder.path}
              </code>{" "}
              without copying them.
            </>
          }
          action={
            <PermittedButton
              size="sm"
              deniedReason={ability.reason("create", "secret-imports")}
              onClick={() => onAddingChange(true)}
            >
              <Plus aria-hidden />
              Add the first import
            </PermittedButton>
          }
        />
      ) : (
        <>
          <div className="flex items-baseline justify-between gap-4">
            <h2 className="text-sm font-semibold">
              {imports.length === 1 ? "1 import" : `${imports.length} imports`}, first to last
            </h2>
            <p className="text-[13px] text-muted-foreground">Drag a handle, or use the arrows, to change the order.</p>
          </div>
          {provided.isError ? (
            <p className="text-[13px] text-muted-foreground">
              The keys these imports provide could not be read:{" "}
              {errorSummary(provided.error, "The secrets list was refused")}
            </p>
          ) : null}
          <ImportsList
            folder={folder}
            imports={imports}
            provided={keys}
            missing={missing}
            providedState={provided.isError ? "error" : provided.data ? "ready" : "loading"}
            preview={preview}
          />
        </>
      )}
      <AddImportDialog
        folder={folder}
        environments={environments}
        existing={imports}
        open={adding}
        onOpenChange={onAddingChange}
      />
    </section>
  );
}

function ListSkeleton() {
  return (
    <div className="grid gap-2" aria-busy="true">
      <span className="sr-only" role="status">
        Loading imports…
      </span>
      <Skeleton className="h-4 w-40" />
      <div className="overflow-hidden rounded-xl border border-border bg-card">
        {[0, 1, 2].map((row) => (
          <div key={row} className="flex h-14 items-center gap-6 border-b border-border px-4 last:border-0">
            <Skeleton className="size-4" />
            <Skeleton className="h-4 w-32" />
            <Skeleton className="h-4 w-64" />
          </div>
        ))}
      </div>
    </div>
  );
}

function PageSkeleton() {
  return (
    <>
      <PageHeader title="Secret imports" description={description} />
      <Skeleton className="h-16 w-full rounded-xl" />
      <ListSkeleton />
    </>
  );
}
