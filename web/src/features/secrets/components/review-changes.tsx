import { useQuery } from "@tanstack/react-query";
import { Eye, EyeOff, Undo2 } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { useRevealed } from "@/hooks/use-remask";
import { cn } from "@/lib/cn";
import { errorSummary } from "@/lib/describe-error";
import { importSourceLabel } from "@/lib/import-precedence";
import type { SecretFolder } from "../api";
import { secretQueries } from "../queries";
import { type PendingChange, pendingChanges, unstage } from "../staging/staged-changes";
import { ReferenceFlags, useReferenceIssues } from "./reference-flags";
import { useStaging } from "./staging-context";

interface ReviewChangesDialogProps {
  projectId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  saving: boolean;
  onSave: () => void;
  onDiscardAll: () => void;
  /** What the save is about, recorded in the folder's history (optional). */
  message: string;
  onMessageChange: (message: string) => void;
}

const kinds = {
  create: { label: "New", tone: "bg-success-subtle text-success-subtle-foreground" },
  update: { label: "Edited", tone: "bg-accent-subtle text-accent-subtle-foreground" },
  delete: { label: "Deleted", tone: "bg-destructive-subtle text-destructive-subtle-foreground" },
} as const;

/**
 * Every pending change of the page, folder by folder, each with what it changes: the key, the
 * value (masked until "Reveal values"; the current one is read from the server only then) and
 * the comment, the server's error from the last save, and undo.
 */
export function ReviewChangesDialog({
  projectId,
  open,
  onOpenChange,
  saving,
  onSave,
  onDiscardAll,
  message,
  onMessageChange,
}: ReviewChangesDialogProps) {
  const { staged, count } = useStaging();
  const messageId = useId();
  const revealed = useRevealed<"values">();
  const shown = revealed.keys.has("values");
  const all = pendingChanges(staged);
  const failed = all.filter((pending) => pending.error).length;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="flex max-h-[calc(100dvh-2rem)] max-w-3xl flex-col">
        <DialogHeader>
          <DialogTitle>Review changes ({count})</DialogTitle>
          <DialogDescription>
            {count === 0
              ? "Nothing is pending."
              : failed > 0
                ? `${failed} of them could not be saved: see why below, change or undo them, and save again.`
                : "Saved together, all or nothing: one request per folder, one entry in its history."}
          </DialogDescription>
        </DialogHeader>
        {count > 0 ? (
          <div className="flex justify-end">
            <Button
              size="sm"
              variant="ghost"
              aria-pressed={shown}
              onClick={() => revealed.toggle("values")}
              className="text-muted-foreground"
            >
              {shown ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
              {shown ? "Hide values" : "Reveal values"}
            </Button>
          </div>
        ) : null}
        <ol aria-label="Pending changes" className="-mx-1 grid min-h-0 gap-2 overflow-y-auto px-1">
          {all.map((pending) => (
            <ReviewItem
              key={`${pending.place.environment}\u0000${pending.place.secretPath}\u0000${pending.change.secretKey}`}
              folder={{ projectId, ...pending.place }}
              pending={pending}
              revealed={shown}
            />
          ))}
        </ol>
        {count > 0 ? (
          <div className="grid gap-1.5">
            <Label htmlFor={messageId}>
              Describe this change <span className="font-normal text-muted-foreground">(optional)</span>
            </Label>
            <Input
              id={messageId}
              value={message}
              maxLength={256}
              placeholder={`Update ${count} ${count === 1 ? "secret" : "secrets"}`}
              disabled={saving}
              onChange={(event) => onMessageChange(event.target.value)}
            />
          </div>
        ) : null}
        <DialogFooter>
          <Button variant="ghost" disabled={count === 0 || saving} onClick={onDiscardAll}>
            Discard all
          </Button>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Keep editing
          </Button>
          <Button variant="primary" disabled={count === 0 || saving} aria-busy={saving || undefined} onClick={onSave}>
            {saving ? <Spinner /> : null}
            Save {count} {count === 1 ? "change" : "changes"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function ReviewItem({
  folder,
  pending,
  revealed,
}: {
  folder: SecretFolder;
  pending: PendingChange;
  revealed: boolean;
}) {
  const { change } = pending;
  const { change: stage } = useStaging();
  const key = change.secretKey;
  const newKey = change.kind === "update" ? change.newSecretKey : undefined;
  const newValue = change.kind === "delete" ? undefined : change.secretValue;
  const newComment = change.kind === "delete" ? undefined : change.secretComment;
  // What the server holds now: the value only when revealed, the comment from the list (no values).
  const readsOld = change.kind === "delete" || (change.kind === "update" && newValue !== undefined);
  const oldValue = useQuery({ ...secretQueries.value(folder, key), enabled: revealed && readsOld });
  const list = useQuery({
    ...secretQueries.list(folder),
    enabled: change.kind === "update" && newComment !== undefined,
  });
  const oldComment = list.data?.secrets.find((secret) => secret.secretKey === key)?.secretComment;
  const issues = useReferenceIssues(folder, newValue?.includes("${") ? newValue : undefined);
  const kind = kinds[change.kind];
  const label = `${importSourceLabel(folder.environment, folder.secretPath)}`;

  return (
    <li
      className={cn(
        "grid gap-2 rounded-lg border bg-card px-3 py-2.5",
        pending.error ? "border-destructive/50" : "border-border",
      )}
      aria-label={`${kind.label} ${newKey ?? key}`}
    >
      <div className="flex min-w-0 items-center gap-2">
        <span className={cn("shrink-0 rounded-sm px-1 text-xs font-medium", kind.tone)}>{kind.label}</span>
        <span className="min-w-0 truncate font-mono text-[13px] font-medium">
          {newKey ? (
            <>
              <span className="text-muted-foreground line-through">{key}</span> → {newKey}
            </>
          ) : (
            key
          )}
        </span>
        <span className="shrink-0 font-mono text-xs text-muted-foreground">{label}</span>
        <Button
          size="sm"
          variant="ghost"
          className="ml-auto h-7 shrink-0"
          aria-label={`Undo changes to ${key}`}
          onClick={() => stage((current) => unstage(current, pending.place, key))}
        >
          <Undo2 aria-hidden />
          Undo
        </Button>
      </div>
      {pending.error ? (
        <p role="alert" className="text-[13px] text-destructive-subtle-foreground">
          {pending.error}
        </p>
      ) : null}
      {readsOld || newValue !== undefined ? (
        <dl aria-label="Value" className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 font-mono text-[13px]">
          {readsOld ? (
            <DiffLine sign="−" tone="removed">
              {!revealed ? (
                <Masked />
              ) : oldValue.isPending ? (
                <span className="inline-flex items-center gap-2 font-sans text-muted-foreground">
                  <Spinner /> Reading the value…
                </span>
              ) : oldValue.isError ? (
                <span className="font-sans text-destructive-subtle-foreground">
                  {errorSummary(oldValue.error, "Could not read the value")}
                </span>
              ) : oldValue.data.secretValueHidden ? (
                <span className="font-sans text-muted-foreground">Hidden by permission</span>
              ) : (
                <Text value={oldValue.data.secretValue} />
              )}
            </DiffLine>
          ) : null}
          {newValue !== undefined ? (
            <DiffLine sign="+" tone="added">
              {revealed ? <Text value={newValue} /> : <Masked />}
            </DiffLine>
          ) : null}
        </dl>
      ) : null}
      {newComment !== undefined && (change.kind === "update" || newComment !== "") ? (
        <dl aria-label="Comment" className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-[13px]">
          {change.kind === "update" ? (
            <DiffLine sign="−" tone="removed">
              <Text value={oldComment ?? ""} />
            </DiffLine>
          ) : null}
          <DiffLine sign="+" tone="added">
            <Text value={newComment} />
          </DiffLine>
        </dl>
      ) : null}
      <ReferenceFlags issues={issues} />
    </li>
  );
}

/** One side of a diff: what the server holds now (−) or what the save writes (+). */
function DiffLine({ sign, tone, children }: { sign: string; tone: "added" | "removed"; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className={tone === "added" ? "text-success-subtle-foreground" : "text-destructive-subtle-foreground"}>
        <span aria-hidden>{sign}</span>
        <span className="sr-only">{tone === "added" ? "New" : "Now"}</span>
      </dt>
      <dd
        className={cn(
          "min-w-0 rounded-sm px-1.5 py-0.5 whitespace-pre-wrap break-all",
          tone === "added" ? "bg-success-subtle/60" : "bg-destructive-subtle/60",
        )}
      >
        {children}
      </dd>
    </div>
  );
}

function Masked() {
  return (
    <span className="tracking-widest text-muted-foreground select-none">
      <span aria-hidden>••••••••••••</span>
      <span className="sr-only">Value masked</span>
    </span>
  );
}

function Text({ value }: { value: string }) {
  return value === "" ? <span className="font-sans text-muted-foreground italic">empty</span> : <>{value}</>;
}
