import * as Tabs from "@radix-ui/react-tabs";
import { useSuspenseQuery } from "@tanstack/react-query";
import { useParams, useSearchParams } from "react-router";
import { ErrorPanel } from "@/components/errors/error-panel";
import { QueryBoundary } from "@/components/errors/query-boundary";
import { PageHeader } from "@/components/layout/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/cn";
import { accessQueries } from "../queries";
import { IdentityMembershipsSection } from "./identity-memberships-section";
import { IdentityPrivilegesSection } from "./identity-privileges-section";
import { useAccessGuards } from "./use-access-guards";
import { UserMembershipsSection } from "./user-memberships-section";

type AccessTab = "identities" | "users";

const tabClasses = cn(
  "relative -mb-px h-9 rounded-t-sm border-b-2 border-transparent px-1 text-sm font-medium text-muted-foreground outline-none",
  "hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring data-[state=active]:border-accent data-[state=active]:text-foreground",
);

/** The project's access: identities with roles and privileges, and users. Tab and identity are in the URL. */
export function AccessPage() {
  const projectId = useParams().projectId ?? "";
  const [params, setParams] = useSearchParams();
  const tab: AccessTab = params.get("tab") === "users" ? "users" : "identities";
  const selected = params.get("identity") ?? undefined;

  const update = (patch: Record<string, string | undefined>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(patch)) {
          if (value === undefined) next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Access"
        description="Who can reach this project: identities and users, with their roles and additional privileges."
      />
      <Tabs.Root value={tab} onValueChange={(value) => update({ tab: value === "users" ? "users" : undefined })}>
        <Tabs.List aria-label="Kinds of members" className="mb-5 flex gap-6 border-b border-border">
          <Tabs.Trigger value="identities" className={tabClasses}>
            Identities
          </Tabs.Trigger>
          <Tabs.Trigger value="users" className={tabClasses}>
            Users
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="identities" className="outline-none">
          <QueryBoundary
            loading={<SectionSkeleton what="identities" />}
            error={({ error, retry }) => (
              <ErrorPanel error={error} title="Could not load the project's identities" onRetry={retry} />
            )}
          >
            <IdentitiesTab projectId={projectId} selected={selected} onSelect={(identity) => update({ identity })} />
          </QueryBoundary>
        </Tabs.Content>
        <Tabs.Content value="users" className="outline-none">
          <QueryBoundary
            loading={<SectionSkeleton what="users" />}
            error={({ error, retry }) => (
              <ErrorPanel error={error} title="Could not load the project's users" onRetry={retry} />
            )}
          >
            <UsersTab projectId={projectId} />
          </QueryBoundary>
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}

function IdentitiesTab({
  projectId,
  selected,
  onSelect,
}: {
  projectId: string;
  selected: string | undefined;
  onSelect: (identityId: string | undefined) => void;
}) {
  const guards = useAccessGuards(projectId);
  const { data: memberships } = useSuspenseQuery(accessQueries.identities(projectId));
  const membership = memberships.find((m) => m.identityId === selected);
  return (
    <div className="grid gap-6">
      <IdentityMembershipsSection
        projectId={projectId}
        guards={guards}
        selectedIdentityId={membership?.identityId}
        onSelect={onSelect}
      />
      {membership ? (
        <IdentityPrivilegesSection
          key={membership.identityId}
          projectId={projectId}
          membership={membership}
          guards={guards}
          onClose={() => onSelect(undefined)}
        />
      ) : null}
    </div>
  );
}

function UsersTab({ projectId }: { projectId: string }) {
  const guards = useAccessGuards(projectId);
  return <UserMembershipsSection projectId={projectId} guards={guards} />;
}

function SectionSkeleton({ what }: { what: string }) {
  return (
    <div className="grid gap-3" aria-busy="true">
      <span className="sr-only" role="status">
        Loading {what}…
      </span>
      <div className="flex justify-between">
        <Skeleton className="h-9 w-72" />
        <Skeleton className="h-8 w-32" />
      </div>
      <div className="overflow-hidden rounded-xl border border-border bg-card">
        <div className="h-9 border-b border-border bg-surface" />
        {[0, 1, 2, 3].map((row) => (
          <div key={row} className="flex h-11 items-center gap-6 border-b border-border px-4 last:border-0">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-4 w-28" />
            <Skeleton className="h-4 w-20" />
            <Skeleton className="ml-auto h-4 w-32" />
          </div>
        ))}
      </div>
    </div>
  );
}
