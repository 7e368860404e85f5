import type { Project } from "@keyhold/contract";
import { useSuspenseQuery } from "@tanstack/react-query";
import { ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import { ActivityLink } from "@/components/audit/activity-link";
import { PageHeader } from "@/components/layout/page-header";
import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { useServerFeature } from "@/hooks/use-server-feature";
import { formatDateTime } from "@/lib/format";
import { projectQueries } from "../queries";
import { AuditRetentionCard } from "./audit-retention-card";
import { Card } from "./card";
import { EnvironmentsCard } from "./environments-card";
import { ProjectSettingsCard } from "./project-settings-card";
import { useProjectDenials } from "./use-project-denials";
import { useProjectId } from "./use-project-id";

/** A project's home: what it is, its environments and its settings. */
export function ProjectOverview() {
  const projectId = useProjectId();
  const { data: project } = useSuspenseQuery(projectQueries.detail(projectId));
  const denials = useProjectDenials(projectId);

  return (
    <div className="grid gap-6">
      <PageHeader
        title={project.name}
        description={project.description || undefined}
        actions={<ActivityLink of={{ projectId: project.id }} label={`Activity in ${project.name}`} />}
      >
        <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2">
          <IdChip label="Project ID" value={project.id} />
          {project.hasDeleteProtection ? (
            <Badge tone="success">
              <ShieldCheck aria-hidden />
              Delete protection
            </Badge>
          ) : null}
        </div>
      </PageHeader>

      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="grid gap-4">
          <EnvironmentsCard project={project} denials={denials} />
          <DetailsCard project={project} />
        </div>
        <div className="grid gap-4">
          <ProjectSettingsCard project={project} denials={denials} />
          <AuditRetentionCard project={project} denials={denials} />
        </div>
      </div>
    </div>
  );
}

function IdChip({ label, value }: { label: string; value: string }) {
  return (
    <span className="inline-flex items-center gap-1 rounded-md border border-border bg-surface py-0.5 pr-0.5 pl-2">
      <span className="sr-only">{label}</span>
      <code className="font-mono text-xs text-muted-foreground">{value}</code>
      <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
    </span>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[9rem_1fr] items-center gap-4 py-2 first:pt-0 last:pb-0">
      <dt className="text-[13px] text-muted-foreground">{term}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

function DetailsCard({ project }: { project: Project }) {
  const deleteProtection = useServerFeature("deleteProtection");
  return (
    <Card id="project-details" title="Details">
      <dl className="divide-y divide-border p-4">
        <Row term="Slug">
          <span className="inline-flex items-center gap-1">
            <code className="font-mono text-[13px]">{project.slug}</code>
            <CopyButton value={project.slug} label="Copy project slug" />
          </span>
        </Row>
        <Row term="Type">
          <span className="text-[13px]">{project.type === "secret-manager" ? "Secret manager" : project.type}</span>
        </Row>
        <Row term="Delete protection">
          {deleteProtection.available ? (
            <span className="text-[13px]">{project.hasDeleteProtection ? "On" : "Off"}</span>
          ) : (
            <span className="text-[13px] text-muted-foreground">Not available: {deleteProtection.reason}</span>
          )}
        </Row>
        <Row term="Created">
          <time dateTime={project.createdAt} className="text-[13px]">
            {formatDateTime(project.createdAt)}
          </time>
        </Row>
        <Row term="Updated">
          <time dateTime={project.updatedAt} className="text-[13px]">
            {formatDateTime(project.updatedAt)}
          </time>
        </Row>
      </dl>
    </Card>
  );
}
