import { CircleCheck, X } from "lucide-react";
import { Button } from "@/components/ui/button";

export interface RollbackResult {
  /** What was restored: "change #3", or a snapshot's time. */
  target: string;
  secretChanges?: number | undefined;
  folderChanges?: number | undefined;
}

/** What the last rollback did; it stays until dismissed or the page is left. */
export function RollbackResultNote({ result, onDismiss }: { result: RollbackResult; onDismiss: () => void }) {
  const counts =
    result.secretChanges === undefined
      ? ""
      : ` ${result.secretChanges} ${result.secretChanges === 1 ? "secret" : "secrets"} and ${result.folderChanges ?? 0} ${
          result.folderChanges === 1 ? "folder or import" : "folders or imports"
        } changed.`;
  return (
    <div
      role="status"
      className="flex items-start gap-3 rounded-xl border border-border bg-success-subtle px-4 py-3 text-sm text-success-subtle-foreground"
    >
      <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0" />
      <p className="flex-1">
        Rolled back to {result.target}.{counts} The rollback is at the top of the history: roll back to the change
        before it to undo.
      </p>
      <Button variant="ghost" size="icon-sm" aria-label="Dismiss" onClick={onDismiss}>
        <X aria-hidden />
      </Button>
    </div>
  );
}
