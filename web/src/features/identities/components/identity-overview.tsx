import type { ReactNode } from "react";
import { Link } from "react-router";
import { paths } from "@/config/paths";
import { useServerFeature } from "@/hooks/use-server-feature";
import { cn } from "@/lib/cn";
import { formatDateTime } from "@/lib/format";
import { useSuspenseQuery } from "@tanstack/react-query";
import { identityQueries } from "../queries";
import { AuthMethodsSection } from "../auth-methods/components/auth-methods-section";
import { DeleteProtectionBadge, RoleBadge } from "./identity-badges";
import { ProjectMembershipsSection } from "./project-memberships-section";
import { useIdentityId } from "./use-identity-id";

interface CardProps {
  title: string;
  children: ReactNode;
  action?: ReactNode;
  className?: string;
}

function Card({ title, children, action, className }: CardProps) {
  const headingId = `identity-${title.toLowerCase().replace(/\s+/g, "-")}`;
  return (
    <section aria-labelledby={headingId} className={cn("rounded-xl border border-border bg-card shadow-xs", className)}>
      <div className="flex h-11 items-center justify-between border-b border-border px-4">
        <h2 id={headingId} className="text-sm font-semibold">
          {title}
        </h2>
        {action}
      </div>
      <div className="p-4">{children}</div>
    </section>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[10rem_1fr] items-center gap-4 py-2 first:pt-0 last:pb-0">
      <dt className="text-[13px] text-muted-foreground">{term}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

export function IdentityOverview() {
  const identityId = useIdentityId();
  const { data: membership } = useSuspenseQuery(identityQueries.detail(identityId));
  const { identity } = membership;
  const deleteProtection = useServerFeature("deleteProtection");
  const metadata = membership.metadata ?? [];
  const editLink = (
    <Link
      to={paths.identityEdit.href(identity.id)}
      className="text-[13px] font-medium text-accent-text hover:underline"
    >
      Edit
    </Link>
  );

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card title="Details" action={editLink}>
        <dl className="divide-y divide-border">
          <Row term="Organization role">
            <RoleBadge role={membership.customRole?.slug ?? membership.role} />
          </Row>
          <Row term="Delete protection">
            {deleteProtection.available ? (
              <DeleteProtectionBadge on={identity.hasDeleteProtection} />
            ) : (
              <span className="text-[13px] text-muted-foreground">Not available: {deleteProtection.reason}</span>
            )}
          </Row>
          <Row term="Created">
            <time dateTime={membership.createdAt}>{formatDateTime(membership.createdAt)}</time>
          </Row>
          <Row term="Updated">
            <time dateTime={membership.updatedAt}>{formatDateTime(membership.updatedAt)}</time>
          </Row>
        </dl>
      </Card>

      <Card title="Metadata" action={editLink}>
        {metadata.length > 0 ? (
          <dl className="divide-y divide-border rounded-md border border-border">
            {metadata.map((entry) => (
              <div
                key={entry.id}
                className="grid gap-x-4 gap-y-0.5 px-3 py-2 sm:grid-cols-[minmax(8rem,16rem)_minmax(0,1fr)]"
              >
                <dt className="truncate font-mono text-[13px] text-muted-foreground">{entry.key}</dt>
                <dd className="font-mono text-[13px] [overflow-wrap:anywhere]">{entry.value}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="text-muted-foreground">No metadata. Add key/value labels on the Edit tab.</p>
        )}
      </Card>

      <div className="lg:col-span-2">
        <ProjectMembershipsSection identityId={identity.id} />
      </div>

      <div className="lg:col-span-2">
        <AuthMethodsSection identity={identity} />
      </div>
    </div>
  );
}
