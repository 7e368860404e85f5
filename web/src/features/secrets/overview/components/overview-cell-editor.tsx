import { useQuery } from "@tanstack/react-query";
import { Check, X } from "lucide-react";
import { type KeyboardEvent, type RefObject, useId, useLayoutEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import type { SecretFolder } from "../../api";
import type { LeaveEdit } from "../../components/value-cell";
import { secretQueries } from "../../queries";
import { useWriteAcross } from "../mutations";

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
 * A cell's value edited in place, saved as a batch of one in its environment: Enter saves,
 * Escape cancels. A value of several lines is edited on the secrets page.
 */
export function CellEditor({ folder, environmentName, secretKey, mode, canRead, leaveRef, onDone }: CellEditorProps) {
  const reading = mode === "update" && canRead;
  const current = useQuery({ ...secretQueries.value(folder, secretKey), enabled: reading });
  const write = useWriteAcross(folder.projectId, folder.secretPath);
  const [draft, setDraft] = useState<string>();
  const hintId = useId();
  const known = current.data && !current.data.secretValueHidden ? current.data.secretValue : undefined;
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
    if (loading || write.isPending) return;
    if (mode === "update" && (draft === undefined || draft === known)) return onDone();
    write.mutate([{ environment: folder.environment, mode, items: [{ secretKey, secretValue: draft ?? "" }] }], {
      onSuccess: ({ failed }) => {
        const failure = failed[0];
        if (failure) {
          toast.error(
            mode === "create" ? `Could not add ${secretKey} in ${environmentName}` : "Could not save the value",
            errorSummary(failure.error, "Nothing was written"),
          );
          return;
        }
        toast.success(mode === "create" ? `Added in ${environmentName}` : `Saved in ${environmentName}`, secretKey);
        onDone();
      },
      onError: (error) => toast.error("Could not save the value", errorSummary(error, "Nothing was written")),
    });
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
        readOnly={write.isPending}
        autoComplete="off"
        spellCheck={false}
        autoFocus
        className="h-8 min-w-0 flex-1 rounded-md border border-ring bg-card px-2 font-mono text-[13px] outline-none ring-3 ring-ring/25"
      />
      <span id={hintId} className="sr-only">
        Enter saves, Escape cancels.
      </span>
      <Button
        variant="ghost"
        size="icon-sm"
        className="size-7"
        aria-label={
          mode === "create"
            ? `Add ${secretKey} in ${environmentName}`
            : `Save value of ${secretKey} in ${environmentName}`
        }
        disabled={loading}
        aria-busy={write.isPending || undefined}
        onClick={save}
      >
        {write.isPending ? <Spinner /> : <Check aria-hidden />}
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
