import { useQuery } from "@tanstack/react-query";
import { LockKeyhole } from "lucide-react";
import { useState } from "react";
import { ErrorPanel } from "@/components/errors/error-panel";
import { PageHeader } from "@/components/layout/page-header";
import { Badge } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/skeleton";
import { useSession } from "@/hooks/use-session";
import type { ConnectedIdentity } from "../mutations";
import { ssoSetupQueries } from "../queries";
import { IdentityStep } from "./identity-step";
import { ConfigureStep, RegisterStep } from "./provider-steps";
import { SwitchOnStep, TestStep } from "./test-step";

const MODE_BADGES = {
  off: { tone: "outline", label: "Off" },
  "test-only": { tone: "warning", label: "Test sign-ins only" },
  on: { tone: "success", label: "On" },
} as const;

/** The guided set-up of single sign-on, for org admins: from the provider's registration to switching it on. */
export function SsoSetupPage() {
  const session = useSession();
  const isAdmin = session.identity.role === "admin";
  return (
    <div className="grid gap-6">
      <PageHeader
        title="Single sign-on"
        description="People sign in with your organization's identity provider, as an identity whose OIDC auth decides who may. Audit events and the header then name the person."
      />
      {isAdmin ? <SetupSteps orgId={session.organization.id} /> : <AdminsOnly />}
    </div>
  );
}

function SetupSteps({ orgId }: { orgId: string }) {
  const query = useQuery(ssoSetupQueries.setup());
  const [connected, setConnected] = useState<ConnectedIdentity>();

  if (query.isPending) {
    return (
      <div className="grid gap-4" aria-busy="true">
        <span className="sr-only" role="status">
          Loading the single sign-on set-up…
        </span>
        <Skeleton className="h-6 w-48" />
        <Skeleton className="h-48 w-full rounded-xl" />
        <Skeleton className="h-32 w-full rounded-xl" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <ErrorPanel
        error={query.error}
        title="Could not load the single sign-on set-up"
        onRetry={() => void query.refetch()}
      />
    );
  }
  const setup = query.data;
  const ruleIdentity = setup.rules[0]?.identityId;
  const identity =
    connected ?? (setup.identityId ? { id: setup.identityId } : ruleIdentity ? { id: ruleIdentity } : undefined);
  const mode = MODE_BADGES[setup.mode];

  return (
    <div className="grid gap-4">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-muted-foreground">Status</span>
        <Badge tone={mode.tone}>{mode.label}</Badge>
        {setup.providerName ? <span className="text-muted-foreground">with {setup.providerName}</span> : null}
      </p>
      <RegisterStep setup={setup} />
      <ConfigureStep setup={setup} />
      {setup.mode === "off" ? null : (
        <>
          <IdentityStep setup={setup} orgId={orgId} connected={connected} onConnected={setConnected} />
          <TestStep identity={identity} />
          <SwitchOnStep setup={setup} identity={identity} />
        </>
      )}
    </div>
  );
}

function AdminsOnly() {
  return (
    <div
      role="note"
      className="flex flex-col items-center rounded-xl border border-border bg-card px-6 py-12 text-center shadow-xs"
    >
      <div className="mb-4 flex size-10 items-center justify-center rounded-lg border border-border bg-surface">
        <LockKeyhole aria-hidden className="size-5 text-muted-foreground" />
      </div>
      <h2 className="text-sm font-semibold">Only organization admins can set up single sign-on</h2>
      <p className="mt-1 max-w-md text-sm text-muted-foreground">
        It decides who may sign in to the console and as which identity: ask an admin of the organization.
      </p>
    </div>
  );
}
