import { useQuery } from "@tanstack/react-query";
import { Info, RotateCcw } from "lucide-react";
import { useState } from "react";
import { ErrorPanel } from "@/components/errors/error-panel";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { isApiError } from "@/lib/api-error";
import { errorSummary } from "@/lib/describe-error";
import { formatDateTime } from "@/lib/format";
import { toast } from "@/lib/toast";
import type { HistoryFolder } from "../api";
import { useRollbackSnapshot } from "../mutations";
import { historyQueries } from "../queries";
import type { RollbackResult } from "./rollback-result";

/**
 * Why a snapshot rollback failed, in words. A server that answers it with a server error (the
 * mid-2026 line, whose snapshot rollback gave way to commit rollbacks) changed nothing.
 */
function rollbackFailure(error: unknown): string {
  if (isApiError(error) && error.status >= 500) {
    return (
      "This server could not roll the folder back to that snapshot, and nothing was changed. Servers that keep " +
      "commit history no longer roll back snapshots: a signed-in user can roll the folder back from its commit " +
      "history in the server's own dashboard."
    );
  }
  return errorSummary(error, "The rollback failed");
}

interface SnapshotFallbackProps {
  folder: HistoryFolder;
  /** Why the server gives no commit history here, in a sentence. */
  reason: string;
  onRolledBack: (result: RollbackResult) => void;
}

/**
 * For servers without commit history for this console: the folder's snapshots (when each was
 * taken), each of which can be rolled back to where the server supports it.
 */
export function SnapshotFallback({ folder, reason, onRolledBack }: SnapshotFallbackProps) {
  const snapshots = useQuery(historyQueries.snapshots(folder));
  const rollback = useRollbackSnapshot();
  const [chosen, setChosen] = useState<{ id: string; createdAt: string } | undefined>();
  const place = `${folder.environment}:${folder.secretPath}`;

  return (
    <section aria-labelledby="snapshots-heading" className="grid gap-3">
      <div role="note" className="flex items-start gap-3 rounded-xl border border-border bg-card px-4 py-3 text-sm">
        <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
        <p>
          {reason} The folder&apos;s snapshots are listed instead; a preview of what a rollback would change is not
          available on this server.
        </p>
      </div>
      <h2 id="snapshots-heading" className="text-sm font-semibold">
        Snapshots
      </h2>
      {snapshots.isPending ? (
        <div aria-busy="true" className="grid gap-2">
          <span className="sr-only" role="status">
            Loading snapshots…
          </span>
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      ) : snapshots.isError ? (
        <ErrorPanel
          error={snapshots.error}
          title="Could not load the folder's snapshots"
          onRetry={() => void snapshots.refetch()}
        />
      ) : snapshots.data.length === 0 ? (
        <EmptyState
          icon={Info}
          title="No snapshots yet"
          description="The server has taken no snapshot of this folder."
        />
      ) : (
        <ol className="overflow-hidden rounded-xl border border-border bg-card shadow-xs">
          {snapshots.data.map((snapshot, index) => (
            <li
              key={snapshot.id}
              className="flex flex-wrap items-center justify-between gap-3 border-b border-border px-4 py-3 last:border-0"
            >
              <p className="text-sm">
                <time dateTime={snapshot.createdAt}>{formatDateTime(snapshot.createdAt)}</time>
                <span className="ml-2 font-mono text-xs text-muted-foreground">{snapshot.id.slice(0, 8)}</span>
              </p>
              <Button size="sm" disabled={index === 0} onClick={() => setChosen(snapshot)}>
                <RotateCcw aria-hidden />
                Roll back to this snapshot
              </Button>
            </li>
          ))}
        </ol>
      )}
      <ConfirmDialog
        open={chosen !== undefined}
        onOpenChange={(open) => {
          if (!open) {
            rollback.reset();
            setChosen(undefined);
          }
        }}
        title={`Roll back ${place}?`}
        description={
          chosen
            ? `The folder, its imports and its sub-folders go back to how they were at ${formatDateTime(chosen.createdAt)}.`
            : ""
        }
        confirmLabel={rollback.isPending ? "Rolling back…" : "Roll back"}
        pending={rollback.isPending}
        error={rollback.isError ? rollbackFailure(rollback.error) : undefined}
        onConfirm={() => {
          if (!chosen) return;
          rollback.mutate(chosen.id, {
            onSuccess: () => {
              const when = formatDateTime(chosen.createdAt);
              setChosen(undefined);
              toast.success("Folder rolled back", `${place} is as it was at ${when}.`);
              onRolledBack({ target: `the snapshot of ${when}` });
            },
          });
        }}
      />
    </section>
  );
}
