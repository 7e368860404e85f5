import { useQuery } from "@tanstack/react-query";
import { LockKeyhole, RotateCw, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { ActivityLink } from "@/components/audit/activity-link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/cn";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import type { AuthMethodConfig, AuthMethodDescriptor } from "../descriptor";
import { useAuthMethodChange, useClearLockouts } from "../mutations";
import { authMethodEventTypes } from "../event-types";
import { authMethodQueries } from "../queries";
import { summaryItem } from "../summary";
import { AuthMethodFormDialog } from "./auth-method-form-dialog";
import { ClientSecretsTable } from "../../credentials/components/client-secrets-table";
import { TokensTable } from "../../credentials/components/tokens-table";
import { useLiveCredentials } from "../../credentials/live-credentials";
import { CreateTokenDialog } from "./create-token-dialog";

interface AuthMethodRowProps {
  descriptor: AuthMethodDescriptor;
  identityId: string;
  attached: boolean;
  /** Why attaching is not possible here, if it is not. */
  attachBlocked?: string | undefined;
  /** Sign-ins with this method are refused for now, after repeated failures. */
  lockedOut?: boolean;
}

type Open = "form" | "revoke" | "token" | undefined;

export function AuthMethodRow({ descriptor, identityId, attached, attachBlocked, lockedOut }: AuthMethodRowProps) {
  const [open, setOpen] = useState<Open>();
  // Only attached methods are read; a method the server says is not attached (404) reads as null.
  const query = useQuery({ ...authMethodQueries.config(descriptor.name, identityId), enabled: attached });
  const config = attached ? (query.data ?? undefined) : undefined;
  const revoke = useAuthMethodChange(descriptor, identityId, "revoke");
  const headingId = `auth-method-${descriptor.name}`;
  const isAttached = attached && query.data !== null;
  // Revoking ends the credentials the method issued; those a server lists are counted first.
  const kinds = { tokens: descriptor.key === "tokenAuth", clientSecrets: descriptor.key === "universalAuth" };
  const credentials = useLiveCredentials(identityId, kinds, open === "revoke");

  const onRevoke = () =>
    revoke.mutateAsync().then(
      () => {
        toast.success(`${descriptor.label} revoked`);
        setOpen(undefined);
      },
      () => undefined, // shown in the dialog from revoke.error
    );

  return (
    <li aria-labelledby={headingId} className="grid gap-3 px-4 py-4">
      <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-3">
        <div className="min-w-0 flex-1 basis-72">
          <div className="flex items-center gap-2">
            <h3 id={headingId} className="text-sm font-medium">
              {descriptor.label}
            </h3>
            {isAttached ? <Badge tone="success">Attached</Badge> : <Badge tone="outline">Not attached</Badge>}
            {isAttached && lockedOut ? <Badge tone="warning">Locked out</Badge> : null}
          </div>
          <p className="mt-1 text-[13px] text-muted-foreground">{descriptor.description}</p>
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-2">
          <ActivityLink
            variant="ghost"
            label={`Activity of ${descriptor.label}`}
            of={{ eventMetadata: { identityId }, eventTypes: authMethodEventTypes(descriptor.name) }}
          >
            Activity
          </ActivityLink>
          {isAttached ? (
            <>
              {descriptor.key === "tokenAuth" ? (
                <Button size="sm" disabled={!config} onClick={() => setOpen("token")}>
                  Create token
                </Button>
              ) : null}
              <Button
                size="sm"
                disabled={!config}
                aria-label={`Edit ${descriptor.label}`}
                onClick={() => setOpen("form")}
              >
                Edit
              </Button>
              <Button
                size="sm"
                variant="destructive-outline"
                aria-label={`Revoke ${descriptor.label}`}
                onClick={() => setOpen("revoke")}
              >
                Revoke
              </Button>
            </>
          ) : (
            <Button
              size="sm"
              disabled={!!attachBlocked}
              aria-label={`Attach ${descriptor.label}`}
              aria-describedby={attachBlocked ? `${headingId}-blocked` : undefined}
              onClick={() => setOpen("form")}
            >
              Attach
            </Button>
          )}
        </div>
      </div>
      {!isAttached && attachBlocked ? (
        <p id={`${headingId}-blocked`} className="text-[13px] text-muted-foreground">
          Attach is unavailable: {attachBlocked}
        </p>
      ) : null}
      {isAttached && lockedOut ? <LockoutNotice identityId={identityId} label={descriptor.label} /> : null}
      {isAttached ? <Summary descriptor={descriptor} config={config} query={query} /> : null}
      {isAttached && config && descriptor.key === "tokenAuth" ? <TokensTable identityId={identityId} /> : null}
      {isAttached && config && descriptor.key === "universalAuth" ? (
        <ClientSecretsTable identityId={identityId} />
      ) : null}

      <AuthMethodFormDialog
        descriptor={descriptor}
        identityId={identityId}
        config={config}
        open={open === "form"}
        onOpenChange={(next) => setOpen(next ? "form" : undefined)}
      />
      {descriptor.key === "tokenAuth" ? (
        <CreateTokenDialog
          identityId={identityId}
          open={open === "token"}
          onOpenChange={(next) => setOpen(next ? "token" : undefined)}
        />
      ) : null}
      <ConfirmDialog
        open={open === "revoke"}
        onOpenChange={(next) => {
          if (!next) revoke.reset();
          setOpen(next ? "revoke" : undefined);
        }}
        title={`Revoke ${descriptor.label}?`}
        description={
          <>
            Every access token issued through {descriptor.label} stops working at once, and the identity can no longer
            sign in with it. Its settings are deleted.
          </>
        }
        removes={
          kinds.tokens || kinds.clientSecrets
            ? {
                name: descriptor.label,
                counting: credentials,
                sentence: (counts) => <>Revoked with it: {counts}.</>,
              }
            : undefined
        }
        confirmLabel="Revoke"
        onConfirm={onRevoke}
        pending={revoke.isPending}
        error={revoke.error ? errorSummary(revoke.error, `Could not revoke ${descriptor.label}`) : undefined}
      />
    </li>
  );
}

interface SummaryProps {
  descriptor: AuthMethodDescriptor;
  config: AuthMethodConfig | undefined;
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
}

function Summary({ descriptor, config, query }: SummaryProps) {
  if (query.isError) {
    return (
      <div
        role="alert"
        className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-destructive/40 bg-destructive-subtle px-3 py-2 text-[13px] text-destructive-subtle-foreground"
      >
        <span>{errorSummary(query.error, `Could not load the ${descriptor.label} settings`)}</span>
        <Button size="sm" variant="secondary" onClick={() => query.refetch()}>
          <RotateCw aria-hidden />
          Try again
        </Button>
      </div>
    );
  }
  if (!config) {
    return (
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-busy="true">
        <span className="sr-only">Loading {descriptor.label} settings</span>
        {descriptor.summary.slice(0, 4).map((spec) => (
          <Skeleton key={spec.field} className="h-9" />
        ))}
      </div>
    );
  }
  return (
    <dl
      aria-label={`${descriptor.label} settings`}
      className="grid grid-cols-[repeat(auto-fill,minmax(13rem,1fr))] gap-x-6 gap-y-3 rounded-lg border border-border bg-surface px-3 py-3"
    >
      {descriptor.summary.map((spec) => {
        const { text: value, unrestricted } = summaryItem(descriptor, spec, config);
        return (
          <div key={spec.field} className="min-w-0">
            <dt className="text-xs text-muted-foreground">{spec.label}</dt>
            <dd className="flex min-w-0 items-center gap-1">
              {unrestricted ? (
                <TriangleAlert aria-hidden className="size-3.5 shrink-0 text-warning-subtle-foreground" />
              ) : null}
              <span
                title={value}
                className={cn(
                  "min-w-0 text-[13px]",
                  // An identifier is copied whole; a list wraps so that none of it is hidden.
                  spec.copy ? "truncate" : "break-words",
                  spec.mono && "font-mono text-xs",
                  unrestricted && "text-warning-subtle-foreground",
                )}
              >
                {value}
              </span>
              {spec.copy ? <CopyButton value={value} label={`Copy ${spec.label}`} /> : null}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** Says that sign-ins are refused after repeated failures, and lifts the lockout on request. */
function LockoutNotice({ identityId, label }: { identityId: string; label: string }) {
  const clear = useClearLockouts(identityId);
  const onClear = () =>
    clear.mutateAsync().then(
      () => toast.success("Lockout cleared"),
      (error: unknown) => toast.error(errorSummary(error, "Could not clear the lockout")),
    );
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-warning-border bg-warning-subtle px-3 py-2 text-[13px] text-warning-subtle-foreground"
    >
      <span className="flex items-center gap-2">
        <LockKeyhole aria-hidden className="size-4 shrink-0" />
        {label} is locked after repeated failed sign-ins: every client secret is refused until the lockout ends.
      </span>
      <Button size="sm" variant="secondary" disabled={clear.isPending} onClick={onClear}>
        Clear lockout
      </Button>
    </div>
  );
}
