import { useSuspenseQuery } from "@tanstack/react-query";
import { NavLink, Outlet } from "react-router";
import { ActivityLink } from "@/components/audit/activity-link";
import { PageHeader } from "@/components/layout/page-header";
import { CopyButton } from "@/components/ui/copy-button";
import { paths } from "@/config/paths";
import { useSession } from "@/hooks/use-session";
import { cn } from "@/lib/cn";
import { identityQueries } from "../queries";
import { DeleteIdentityButton } from "./delete-identity-button";
import { DeleteProtectionBadge, RoleBadge } from "./identity-badges";
import { useIdentityId } from "./use-identity-id";

/** Header, section tabs and the active section of one identity. */
export function IdentityLayout() {
  const identityId = useIdentityId();
  const { data: membership } = useSuspenseQuery(identityQueries.detail(identityId));
  const { identity } = membership;
  const signedInAs = useSession().identity.id;

  return (
    <div className="grid gap-6">
      <PageHeader
        title={identity.name}
        actions={
          <DeleteIdentityButton
            identityId={identity.id}
            name={identity.name}
            protectedFromDelete={identity.hasDeleteProtection}
            isSignedInIdentity={identity.id === signedInAs}
          />
        }
      >
        <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2">
          <span className="inline-flex items-center gap-1 rounded-md border border-border bg-surface py-0.5 pr-0.5 pl-2">
            <span className="sr-only">Identity ID</span>
            <code className="font-mono text-xs text-muted-foreground">{identity.id}</code>
            <CopyButton value={identity.id} label="Copy identity ID" />
          </span>
          <RoleBadge role={membership.customRole?.slug ?? membership.role} />
          {identity.hasDeleteProtection ? <DeleteProtectionBadge on /> : null}
          <span className="inline-flex items-center gap-1">
            <ActivityLink variant="ghost" of={{ actor: identity.id }} label={`Activity by ${identity.name}`}>
              Activity by it
            </ActivityLink>
            <ActivityLink
              variant="ghost"
              of={{ eventMetadata: { identityId: identity.id } }}
              label={`Activity about ${identity.name}`}
            >
              About it
            </ActivityLink>
          </span>
        </div>
      </PageHeader>

      <nav aria-label="Identity sections" className="-mb-2 border-b border-border">
        <ul className="flex gap-4">
          <TabLink to={paths.identity.href(identity.id)} label="Overview" end />
          <TabLink to={paths.identityEdit.href(identity.id)} label="Edit" />
        </ul>
      </nav>

      <Outlet />
    </div>
  );
}

function TabLink({ to, label, end = false }: { to: string; label: string; end?: boolean }) {
  return (
    <li>
      <NavLink
        to={to}
        end={end}
        className={({ isActive }) =>
          cn(
            "-mb-px inline-flex h-9 items-center border-b-2 px-1 text-sm font-medium outline-none transition-colors",
            "focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring",
            isActive
              ? "border-accent text-foreground"
              : "border-transparent text-muted-foreground hover:text-foreground",
          )
        }
      >
        {label}
      </NavLink>
    </li>
  );
}
