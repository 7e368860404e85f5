import { ListChecks, Save } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Spinner } from "@/components/ui/spinner";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import { useSaveStaged } from "../batch-mutations";
import { pendingChanges } from "../staging/staged-changes";
import { useStaging } from "./staging-context";

// The review (its diff and value reads) loads when it is first opened.
const ReviewChangesDialog = lazy(async () => ({ default: (await import("./review-changes")).ReviewChangesDialog }));

const changes = (count: number) => `${count} ${count === 1 ? "change" : "changes"}`;

/**
 * The pending changes of the page, at the foot of the view while there are any: how many, a
 * review with a diff per secret, discard all (confirmed), and save. A save with deletions in it
 * asks first, naming them; everything else was reviewed where it was staged.
 */
export function StagedChangesBar({ projectId }: { projectId: string }) {
  const staging = useStaging();
  const save = useSaveStaged(projectId);
  const [reviewing, setReviewing] = useState(false);
  const [confirming, setConfirming] = useState<"save" | "discard">();
  const [message, setMessage] = useState("");
  const { count } = staging;
  const deletions = pendingChanges(staging.staged).filter(({ change }) => change.kind === "delete");

  // A refused batch is a result, not an error (see `saveStaged`); an error here is anything else
  // (no connection): shown in the confirmation when it is open, else as a toast.
  function run(confirmed: boolean) {
    save.mutate(
      { staged: staging.staged, message },
      {
        onSuccess: (result) => {
          staging.change(result.settle);
          setConfirming(undefined);
          if (result.failure) {
            toast.error(
              "Some changes were not saved",
              `${errorSummary(result.failure.error, "The server refused them")} They are still pending.`,
            );
            setReviewing(true);
          } else {
            const requests = result.applied === 1 ? "one request" : `${result.applied} requests`;
            toast.success("Changes saved", `${changes(count)} in ${requests}`);
            setMessage("");
            setReviewing(false);
          }
        },
        onError: (error) => {
          if (!confirmed) toast.error("Could not save", errorSummary(error, "Nothing was saved"));
        },
      },
    );
  }

  function startSave() {
    if (deletions.length > 0) setConfirming("save");
    else run(false);
  }

  if (count === 0 && !reviewing) return null;
  return (
    <>
      {count > 0 ? (
        <section
          aria-label="Pending changes"
          className="sticky bottom-4 z-20 flex flex-wrap items-center gap-2 rounded-xl border border-border bg-card px-4 py-3 shadow-lg"
        >
          <p className="mr-auto text-sm" role="status">
            <span className="font-medium tabular-nums">{changes(count)}</span>{" "}
            <span className="text-muted-foreground">not saved yet</span>
          </p>
          <Button size="sm" variant="ghost" disabled={save.isPending} onClick={() => setConfirming("discard")}>
            Discard all
          </Button>
          <Button size="sm" variant="secondary" className="flex-1 sm:flex-none" onClick={() => setReviewing(true)}>
            <ListChecks aria-hidden />
            Review changes ({count})
          </Button>
          <Button
            size="sm"
            variant="primary"
            className="flex-1 sm:flex-none"
            disabled={save.isPending}
            aria-busy={save.isPending || undefined}
            onClick={startSave}
          >
            {save.isPending ? <Spinner /> : <Save aria-hidden />}
            Save {changes(count)}
          </Button>
        </section>
      ) : null}
      {reviewing ? (
        <Suspense fallback={null}>
          <ReviewChangesDialog
            projectId={projectId}
            open={reviewing}
            onOpenChange={setReviewing}
            saving={save.isPending}
            onSave={startSave}
            onDiscardAll={() => setConfirming("discard")}
            message={message}
            onMessageChange={setMessage}
          />
        </Suspense>
      ) : null}
      <ConfirmDialog
        open={confirming === "save"}
        onOpenChange={(open) => {
          if (!open && !save.isPending) setConfirming(undefined);
        }}
        title={`Save ${changes(count)}?`}
        description={
          <>
            {deletions.length === 1 ? "This deletes " : `This deletes ${deletions.length} secrets: `}
            <span className="font-mono text-foreground">
              {deletions.map(({ change, place }) => `${place.environment}:${change.secretKey}`).join(", ")}
            </span>
            . Anything that reads {deletions.length === 1 ? "it" : "them"} will stop finding{" "}
            {deletions.length === 1 ? "it" : "them"}.
          </>
        }
        confirmLabel={`Save ${changes(count)}`}
        pending={save.isPending}
        error={save.error ? errorSummary(save.error, "Nothing was saved") : undefined}
        onConfirm={() => run(true)}
      />
      <ConfirmDialog
        open={confirming === "discard"}
        onOpenChange={(open) => {
          if (!open) setConfirming(undefined);
        }}
        title={`Discard ${changes(count)}?`}
        description="Every pending change on this page is dropped. Nothing has been saved, so nothing on the server changes."
        confirmLabel="Discard all"
        onConfirm={() => {
          staging.discardAll();
          setConfirming(undefined);
          setReviewing(false);
          toast.success("Pending changes discarded", changes(count));
        }}
      />
    </>
  );
}
