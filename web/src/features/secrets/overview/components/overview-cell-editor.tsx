import { useQuery } from "@tanstack/react-query";
import { Check, X } from "lucide-react";
import { type KeyboardEvent, type RefObject, useId, useLayoutEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import type { SecretFolder } from "../../api";
import { useStaging } from "../../components/staging-context";
import type { LeaveEdit } from "../../components/value-cell";
import { secretQueries } from "../../queries";
import { pendingChange, stageCreate, stageEdit } from "../../staging/staged-changes";

interface CellEditorProps {
  folder: SecretFolder;
  environmentName: string;
  secretKey: string;
  /** `create`: the key is missing in this environment; `update`: a new value for the one there. */
  mode: "create" | "update";
  /** Whether the current value may be read to start from; if not, a new value is typed blind. */
  canRead: boolean;
  leaveRef: RefObject<LeaveEdit>;
  onDone: () => void;
}

/**
 * A cell's value edited in place and staged (saved with the page's other pending changes):
 * Enter stages, Escape cancels. It starts from the value already staged, else the current one.
 * A value of several lines is edited on the secrets page.
 */
export function CellEditor({ folder, environmentName, secretKey, mode, canRead, leaveRef, onDone }: CellEditorProps) {
  const staging = useStaging();
  const pending = pendingChange(staging.staged, folder, secretKey)?.change;
  const stagedValue = pending && pending.kind !== "delete" ? pending.secretValue : undefined;
  const reading = mode === "update" && canRead && stagedValue === undefined;
  const current = useQuery({ ...secretQueries.value(folder, secretKey), enabled: reading });
  const [draft, setDraft] = useState<string>();
  const hintId = useId();
  const read = current.data && !current.data.secretValueHidden ? current.data.secretValue : undefined;
  const known = stagedValue ?? read;
  const loading = reading && current.isPending;
  const value = draft ?? known ?? "";
  const multiline = draft === undefined && known?.includes("\n");
  const confirmDiscard = useUnsavedChanges(draft !== undefined && draft !== (known ?? ""));
  useLayoutEffect(() => {
    leaveRef.current = confirmDiscard;
    return () => {
      if (leaveRef.current === confirmDiscard) leaveRef.current = undefined;
    };
  }, [leaveRef, confirmDiscard]);

  function save() {
    if (loading) return;
    if (draft === undefined || draft === known) {
      // A new cell may be staged with the empty value; anything else unchanged stages nothing.
      if (!(mode === "create" && pending === undefined && draft === undefined)) return onDone();
    }
    const secretValue = draft ?? "";
    staging.change((staged) =>
      mode === "create"
        ? stageCreate(staged, folder, { secretKey, secretValue })
        : stageEdit(staged, folder, secretKey, { secretValue }),
    );
    onDone();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter") {
      event.preventDefault();
      save();
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      confirmDiscard(onDone);
    }
  }

  if (multiline) {
    return (
      <span className="flex items-center gap-2 text-[13px] text-muted-foreground">
        <span className="truncate">Several lines: edit on the secrets page.</span>
        <Button variant="ghost" size="sm" className="h-7" onClick={onDone}>
          OK
        </Button>
      </span>
    );
  }
  return (
    <span className="flex min-w-0 items-center gap-1">
      <input
        aria-label={
          mode === "create"
            ? `Value of ${secretKey} in ${environmentName}`
            : `New value of ${secretKey} in ${environmentName}`
        }
        aria-describedby={hintId}
        value={value}
        disabled={loading}
        placeholder={loading ? "Reading…" : mode === "create" ? "Value" : canRead ? "" : "Type a new value"}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
        autoComplete="off"
        spellCheck={false}
        autoFocus
        className="h-8 min-w-0 flex-1 rounded-md border border-ring bg-card px-2 font-mono text-[13px] outline-none ring-3 ring-ring/25"
      />
      <span id={hintId} className="sr-only">
        Enter stages the value, to be saved with the other pending changes; Escape cancels.
      </span>
      <Button
        variant="ghost"
        size="icon-sm"
        className="size-7"
        aria-label={`Stage ${secretKey} in ${environmentName}`}
        title="Stage: saved with the other pending changes"
        disabled={loading}
        onClick={save}
      >
        <Check aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon-sm"
        className="size-7"
        aria-label={`Cancel editing ${secretKey} in ${environmentName}`}
        onClick={() => confirmDiscard(onDone)}
      >
        <X aria-hidden />
      </Button>
    </span>
  );
}
