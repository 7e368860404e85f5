import type { Integration } from "@keyhold/contract";
import { useSuspenseQuery } from "@tanstack/react-query";
import { Plug } from "lucide-react";
import { useParams } from "react-router";
import { ErrorPanel } from "@/components/errors/error-panel";
import { QueryBoundary } from "@/components/errors/query-boundary";
import { PageHeader } from "@/components/layout/page-header";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useProjectAbility } from "@/hooks/use-project-ability";
import { formatDateTime } from "@/lib/format";
import { providerName, syncStatus, targetName } from "../integration-view";
import { integrationQueries } from "../queries";
import { DeleteIntegrationButton } from "./delete-integration-button";

/** A project's native integrations: where each sends which secrets, and whether its last sync worked. */
export function IntegrationsPage() {
  const projectId = useParams().projectId ?? "";
  return (
    <div className="grid gap-6">
      <PageHeader
        title="Integrations"
        description="Integrations send an environment's secrets to another platform. They are created by each provider's own sign-in flow; here you see them and remove them."
      />
      <QueryBoundary
        loading={<IntegrationsSkeleton />}
        error={({ error, retry }) => (
          <ErrorPanel error={error} title="Could not load the integrations" onRetry={retry} />
        )}
      >
        <IntegrationsContent projectId={projectId} />
      </QueryBoundary>
    </div>
  );
}

function IntegrationsContent({ projectId }: { projectId: string }) {
  const { data: integrations } = useSuspenseQuery(integrationQueries.list(projectId));
  const ability = useProjectAbility(projectId);
  const deleteDenied = ability.reason("delete", "integrations");

  if (integrations.length === 0) {
    return (
      <EmptyState
        icon={Plug}
        title="No integrations in this project"
        description="An integration is set up from the provider's side: authorising GitHub, Vercel, AWS and the others happens in their own sign-in flow, which then creates it here. This page lists them and removes them."
      />
    );
  }

  return (
    <div className="overflow-hidden rounded-xl border border-border bg-card shadow-xs">
      <Table aria-label="Integrations">
        <TableHeader>
          <TableRow>
            <TableHead scope="col">App</TableHead>
            <TableHead scope="col">Source</TableHead>
            <TableHead scope="col">Status</TableHead>
            <TableHead scope="col">Last sync message</TableHead>
            <TableHead scope="col">Created</TableHead>
            <TableHead scope="col">Updated</TableHead>
            <TableHead scope="col" className="w-12 text-right">
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {integrations.map((integration) => (
            <IntegrationRow
              key={integration.id}
              projectId={projectId}
              integration={integration}
              deleteDenied={deleteDenied}
            />
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

interface IntegrationRowProps {
  projectId: string;
  integration: Integration;
  deleteDenied: string | undefined;
}

function IntegrationRow({ projectId, integration, deleteDenied }: IntegrationRowProps) {
  const status = syncStatus(integration);
  const target = targetName(integration);
  const provider = providerName(integration.integration);
  return (
    <TableRow className="hover:bg-hover/60">
      <TableCell className="min-w-48 py-2 whitespace-normal">
        <div className="grid min-w-0">
          <span className="font-medium [overflow-wrap:anywhere]">{target ?? provider}</span>
          {target ? <span className="text-[13px] text-muted-foreground">{provider}</span> : null}
        </div>
      </TableCell>
      <TableCell>
        <span className="inline-flex items-center gap-2">
          <span>{integration.environment.name}</span>
          <code className="rounded-sm bg-muted px-1 font-mono text-xs text-muted-foreground">
            {integration.secretPath}
          </code>
        </span>
      </TableCell>
      <TableCell>
        <Badge tone={status.tone}>{status.label}</Badge>
      </TableCell>
      <TableCell className="max-w-80 whitespace-normal py-2 text-[13px] text-muted-foreground">
        {integration.syncMessage || <span className="sr-only">None</span>}
      </TableCell>
      <TableCell className="text-[13px] text-muted-foreground">
        <time dateTime={integration.createdAt}>{formatDateTime(integration.createdAt)}</time>
      </TableCell>
      <TableCell className="text-[13px] text-muted-foreground">
        <time dateTime={integration.updatedAt}>{formatDateTime(integration.updatedAt)}</time>
      </TableCell>
      <TableCell className="text-right">
        <DeleteIntegrationButton
          projectId={projectId}
          integration={integration}
          name={`${target ?? provider} (${provider})`}
          deniedReason={deleteDenied}
        />
      </TableCell>
    </TableRow>
  );
}

function IntegrationsSkeleton() {
  return (
    <div className="overflow-hidden rounded-xl border border-border bg-card" aria-busy="true">
      <span className="sr-only" role="status">
        Loading integrations…
      </span>
      <div className="h-9 border-b border-border bg-surface" />
      {[0, 1, 2].map((row) => (
        <div key={row} className="flex h-12 items-center gap-6 border-b border-border px-4 last:border-0">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-4 w-16" />
          <Skeleton className="h-4 w-64" />
        </div>
      ))}
    </div>
  );
}
