import { useSuspenseQuery } from "@tanstack/react-query";
import { FolderKanban, Plus, Search } from "lucide-react";
import { lazy, useState } from "react";
import { ErrorPanel } from "@/components/errors/error-panel";
import { QueryBoundary } from "@/components/errors/query-boundary";
import { AfterFirstPaint } from "@/components/layout/after-first-paint";
import { PageHeader } from "@/components/layout/page-header";
import { buttonVariants } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { projectQueries } from "../queries";

// The header renders as soon as the route has loaded; the table (TanStack Table) and the
// create dialog (Radix) load right after that first paint.
const ProjectsTable = lazy(async () => ({ default: (await import("./projects-table")).ProjectsTable }));
const CreateProjectDialog = lazy(async () => ({
  default: (await import("./create-project-dialog")).CreateProjectDialog,
}));

/** The create button; until the dialog's code has arrived, an inert look-alike holds its place. */
function CreateProject() {
  return (
    <AfterFirstPaint
      fallback={
        <div aria-hidden className={buttonVariants({ variant: "primary", size: "sm", className: "opacity-50" })}>
          <Plus />
          Create project
        </div>
      }
    >
      <CreateProjectDialog />
    </AfterFirstPaint>
  );
}

export function ProjectsPage() {
  return (
    <div className="grid gap-6">
      <PageHeader
        title="Projects"
        description="Projects hold secrets for each environment, with their own roles, access and integrations."
      />
      <QueryBoundary
        loading={<ProjectsSkeleton />}
        error={({ error, retry }) => <ErrorPanel error={error} title="Could not load projects" onRetry={retry} />}
      >
        <ProjectsContent />
      </QueryBoundary>
    </div>
  );
}

function ProjectsContent() {
  const { data: projects } = useSuspenseQuery(projectQueries.list());
  const [filter, setFilter] = useState("");

  if (projects.length === 0) {
    return (
      <EmptyState
        icon={FolderKanban}
        title="No projects yet"
        description="Create a project for each application or service, then add its secrets per environment."
        action={<CreateProject />}
      />
    );
  }

  return (
    <section aria-label="Project list" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="relative w-full max-w-xs">
          <label htmlFor="project-filter" className="sr-only">
            Filter projects
          </label>
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            id="project-filter"
            type="search"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            placeholder="Filter by name, slug or environment"
            className="pl-9"
            autoComplete="off"
          />
        </div>
        <div className="flex items-center gap-3">
          <p className="text-[13px] text-muted-foreground" aria-live="polite">
            {projects.length === 1 ? "1 project" : `${projects.length} projects`}
          </p>
          <CreateProject />
        </div>
      </div>
      <AfterFirstPaint fallback={<TableSkeleton />}>
        <ProjectsTable projects={projects} filter={filter} onClearFilter={() => setFilter("")} />
      </AfterFirstPaint>
    </section>
  );
}

function ProjectsSkeleton() {
  return (
    <div className="grid gap-3" aria-busy="true">
      <span className="sr-only" role="status">
        Loading projects…
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
          <Skeleton className="h-4 w-28" />
          <Skeleton className="h-4 w-32" />
          <Skeleton className="ml-auto h-4 w-20" />
        </div>
      ))}
    </div>
  );
}
