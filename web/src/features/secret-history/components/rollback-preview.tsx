import type { FolderCommit } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { Eye, EyeOff, RotateCcw } from "lucide-react";
import { useState } from "react";
import { ErrorPanel } from "@/components/errors/error-panel";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { errorSummary } from "@/lib/describe-error";
import { formatDateTime } from "@/lib/format";
import { toast } from "@/lib/toast";
import { type HistoryFolder, historyApi, type SecretChange } from "../api";
import { describeChanges } from "../history-model";
import { useRollback } from "../mutations";
import { historyQueries } from "../queries";
import { ChangeList } from "./change-list";
import type { RollbackResult } from "./rollback-result";

interface RollbackPreviewProps {
  folder: HistoryFolder;
  commit: FolderCommit;
  onClose: () => void;
  onRolledBack: (result: RollbackResult) => void;
}

/**
 * What a rollback to `commit` would do to the folder as it is now (keys added, removed, changed;
 * values masked until revealed), and the rollback itself, confirmed once.
 */
export function RollbackPreview({ folder, commit, onClose, onRolledBack }: RollbackPreviewProps) {
  const preview = useQuery(historyQueries.preview(folder, commit));
  const rollback = useRollback(folder);
  const [confirming, setConfirming] = useState(false);
  const place = `${folder.environment}:${folder.secretPath}`;
  const when = formatDateTime(commit.createdAt);
  const empty = preview.data?.length === 0;

  function rollBack() {
    rollback.mutate(
      { commit, message: `Rollback to #${commit.commitId}` },
      {
        onSuccess: (answer) => {
          setConfirming(false);
          toast.success("Folder rolled back", `${place} is as it was at ${when}.`);
          onRolledBack({
            target: `change #${commit.commitId} (${when})`,
            secretChanges: answer.secretChangesCount,
            folderChanges: answer.folderChangesCount,
          });
        },
      },
    );
  }

  return (
    <>
      <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
        <DialogContent className="max-w-2xl">
          <DialogHeader>
            <DialogTitle>Roll back to #{commit.commitId}?</DialogTitle>
            <DialogDescription>
              <span className="font-mono text-foreground">{place}</span>, its imports and its sub-folders go back to how
              they were at {when}. Values stay masked until you reveal them.
            </DialogDescription>
          </DialogHeader>
          <div className="max-h-[55vh] overflow-y-auto pr-1">
            {preview.isPending ? (
              <div aria-busy="true" className="grid gap-2">
                <span className="sr-only" role="status">
                  Working out what the rollback would change…
                </span>
                <Skeleton className="h-4 w-48" />
                <Skeleton className="h-4 w-64" />
                <Skeleton className="h-4 w-56" />
              </div>
            ) : preview.isError ? (
              <ErrorPanel
                error={preview.error}
                title="Could not preview the rollback"
                onRetry={() => void preview.refetch()}
              />
            ) : empty ? (
              <p className="rounded-lg border border-dashed border-border px-4 py-6 text-center text-sm text-muted-foreground">
                Nothing to change: the folder is already as it was then.
              </p>
            ) : (
              <div className="grid gap-3">
                <p className="text-sm">{describeChanges(preview.data)}.</p>
                <ChangeList
                  changes={preview.data}
                  labels={{ added: "Will come back", removed: "Will be removed", changed: "Will change" }}
                  renderSecret={(change) => <RevealValues folder={folder} commit={commit} change={change} />}
                />
              </div>
            )}
          </div>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="secondary">Cancel</Button>
            </DialogClose>
            <Button variant="destructive" disabled={!preview.data || empty} onClick={() => setConfirming(true)}>
              <RotateCcw aria-hidden />
              Roll back…
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          if (!open) rollback.reset();
          setConfirming(open);
        }}
        title={`Roll back ${place}?`}
        description={
          <>
            {preview.data ? `${describeChanges(preview.data)}. ` : ""}The current state stays in the history, so this
            rollback can itself be rolled back.
          </>
        }
        confirmLabel={rollback.isPending ? "Rolling back…" : "Roll back"}
        pending={rollback.isPending}
        error={rollback.isError ? errorSummary(rollback.error, "The rollback failed") : undefined}
        onConfirm={rollBack}
      />
    </>
  );
}

/** A changed key's values, masked; revealing reads them from the server for this key only, and hiding drops them. */
function RevealValues({
  folder,
  commit,
  change,
}: {
  folder: HistoryFolder;
  commit: FolderCommit;
  change: SecretChange;
}) {
  const [values, setValues] = useState<{ now: string | undefined; then: string | undefined } | undefined>();
  const [state, setState] = useState<"idle" | "loading" | "error">("idle");
  const [error, setError] = useState<string>();

  async function reveal() {
    setState("loading");
    try {
      setValues(await historyApi.reveal(folder, commit, change));
      setState("idle");
    } catch (failure) {
      setError(errorSummary(failure, "The values could not be read"));
      setState("error");
    }
  }

  const masked = "••••••••";
  const shown = (value: string | undefined) =>
    values ? (value ?? <span className="italic text-muted-foreground">withheld</span>) : masked;
  return (
    <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
      {change.changeType !== "add" ? (
        <span className="min-w-0 break-all font-mono text-xs">
          <span className="sr-only">Now: </span>
          {shown(values?.now)}
        </span>
      ) : null}
      {change.changeType === "update" ? (
        <span aria-hidden className="text-muted-foreground">
          →
        </span>
      ) : null}
      {change.changeType !== "delete" ? (
        <span className="min-w-0 break-all font-mono text-xs text-foreground">
          <span className="sr-only">After the rollback: </span>
          {shown(values?.then)}
        </span>
      ) : null}
      {values ? (
        <Button variant="ghost" size="sm" className="h-6 px-1.5" onClick={() => setValues(undefined)}>
          <EyeOff aria-hidden />
          Hide<span className="sr-only"> {change.name}</span>
        </Button>
      ) : (
        <Button
          variant="ghost"
          size="sm"
          className="h-6 px-1.5"
          onClick={() => void reveal()}
          disabled={state === "loading"}
          aria-busy={state === "loading" || undefined}
        >
          {state === "loading" ? <Spinner /> : <Eye aria-hidden />}
          Reveal<span className="sr-only"> {change.name}</span>
        </Button>
      )}
      {state === "error" ? (
        <span role="alert" className="text-xs text-destructive-subtle-foreground">
          {error}
        </span>
      ) : null}
    </span>
  );
}
