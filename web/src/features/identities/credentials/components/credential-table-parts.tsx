import type { UseQueryResult } from "@tanstack/react-query";
import { RotateCw } from "lucide-react";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { errorSummary } from "@/lib/describe-error";
import { formatDateTime } from "@/lib/format";
import { toast } from "@/lib/toast";
import type { CredentialState, CredentialStatus } from "@/lib/credential-status";

const statusBadges: Record<
  CredentialStatus,
  { label: string; tone: "success" | "warning" | "destructive" | "outline" }
> = {
  active: { label: "Active", tone: "success" },
  expired: { label: "Expired", tone: "warning" },
  "used-up": { label: "Used up", tone: "warning" },
  revoked: { label: "Revoked", tone: "outline" },
};

export function StatusBadge({ status }: { status: CredentialStatus }) {
  const badge = statusBadges[status];
  return <Badge tone={badge.tone}>{badge.label}</Badge>;
}

export function ExpiryText({ state }: { state: CredentialState }) {
  if (!state.expiresAt) return <span className="text-muted-foreground">Never</span>;
  return <time dateTime={state.expiresAt.toISOString()}>{formatDateTime(state.expiresAt.toISOString())}</time>;
}

export function DateText({ iso, empty = "Never" }: { iso: string | null | undefined; empty?: string }) {
  if (!iso) return <span className="text-muted-foreground">{empty}</span>;
  return <time dateTime={iso}>{formatDateTime(iso)}</time>;
}

interface CredentialsPanelProps {
  headingId: string;
  title: string;
  description: string;
  action?: ReactNode;
  children: ReactNode;
}

/** The frame around a credentials table inside an auth-method row. */
export function CredentialsPanel({ headingId, title, description, action, children }: CredentialsPanelProps) {
  return (
    <section aria-labelledby={headingId} className="overflow-hidden rounded-lg border border-border">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-border bg-surface px-3 py-2">
        <div className="min-w-0">
          <h4 id={headingId} className="text-[13px] font-medium">
            {title}
          </h4>
          <p className="text-xs text-muted-foreground">{description}</p>
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}

/** Loading, error and empty states of a credentials list; renders the table only with rows to show. */
export function ListStates<T>({
  query,
  what,
  empty,
  children,
}: {
  query: UseQueryResult<T[]>;
  what: string;
  empty: string;
  children: (rows: T[]) => ReactNode;
}) {
  if (query.isPending) {
    return (
      <div className="grid gap-2 p-3" aria-busy="true">
        <span className="sr-only">Loading {what}</span>
        <Skeleton className="h-7" />
        <Skeleton className="h-7" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div
        role="alert"
        className="flex flex-wrap items-center justify-between gap-2 bg-destructive-subtle px-3 py-2 text-[13px] text-destructive-subtle-foreground"
      >
        <span>{errorSummary(query.error, `Could not load the ${what}`)}</span>
        <Button size="sm" variant="secondary" onClick={() => void query.refetch()}>
          <RotateCw aria-hidden />
          Try again
        </Button>
      </div>
    );
  }
  if (query.data.length === 0)
    return <p className="px-3 py-4 text-center text-[13px] text-muted-foreground">{empty}</p>;
  return children(query.data);
}

interface RevokeCredentialDialogProps {
  /** The credential being revoked, with the name to show; undefined while the dialog is closed. */
  target: { id: string; name: string } | undefined;
  /** What it is, lower case: "token", "client secret". */
  noun: string;
  description: string;
  confirmLabel: string;
  revoke: {
    mutate: (id: string, options: { onSuccess: () => void }) => void;
    reset: () => void;
    isPending: boolean;
    error: Error | null;
  };
  onClose: () => void;
}

/** The confirmation before revoking a token or a client secret, shared by both tables. */
export function RevokeCredentialDialog({
  target,
  noun,
  description,
  confirmLabel,
  revoke,
  onClose,
}: RevokeCredentialDialogProps) {
  const close = () => {
    revoke.reset();
    onClose();
  };
  const capitalised = noun.charAt(0).toUpperCase() + noun.slice(1);
  return (
    <ConfirmDialog
      open={target !== undefined}
      onOpenChange={(open) => (open ? undefined : close())}
      title={`Revoke ${target?.name ?? noun}?`}
      description={description}
      confirmLabel={confirmLabel}
      onConfirm={() => {
        if (!target) return;
        revoke.mutate(target.id, {
          onSuccess: () => {
            toast.success(`${capitalised} revoked`);
            close();
          },
        });
      }}
      pending={revoke.isPending}
      error={revoke.error ? errorSummary(revoke.error, `Could not revoke the ${noun}`) : undefined}
    />
  );
}
