import { useQuery } from "@tanstack/react-query";
import { Check, LockKeyhole, X } from "lucide-react";
import { type KeyboardEvent, type RefObject, useId, useLayoutEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import type { SecretFolder } from "../api";
import { useUpdateSecretValue } from "../mutations";
import { secretQueries } from "../queries";

export function MaskedValue() {
  return (
    <span className="block truncate font-mono text-[13px] tracking-widest text-muted-foreground select-none">
      <span aria-hidden>••••••••••••</span>
      <span className="sr-only">Value masked</span>
    </span>
  );
}

/** The caller may see that the secret exists, not its value. */
export function HiddenValue() {
  return (
    <span className="flex min-w-0 items-center gap-1.5 text-[13px] text-muted-foreground">
      <LockKeyhole aria-hidden className="size-3.5 shrink-0" />
      <span className="truncate">Hidden by permission</span>
    </span>
  );
}

/** The value, read when revealed; the cache forgets it once the row no longer shows it. */
export function RevealedValue({ folder, secretKey }: { folder: SecretFolder; secretKey: string }) {
  const value = useQuery(secretQueries.value(folder, secretKey));
  if (value.isPending) {
    return (
      <span className="inline-flex items-center gap-2 text-[13px] text-muted-foreground">
        <Spinner /> Reading the value…
      </span>
    );
  }
  if (value.isError) {
    return (
      <span role="alert" className="block truncate text-[13px] text-destructive-subtle-foreground">
        {errorSummary(value.error, "Could not read the value")}
      </span>
    );
  }
  if (value.data.secretValueHidden) return <HiddenValue />;
  const text = value.data.secretValue;
  return (
    <span className="block truncate font-mono text-[13px]" title={text}>
      {text === "" ? <span className="text-muted-foreground italic">empty</span> : text}
    </span>
  );
}

/** Leaves an inline edit: runs `then` at once when its value is unchanged, else once the person agrees to discard it. */
export type LeaveEdit = ((then: () => void) => void) | undefined;

interface ValueEditorProps {
  folder: SecretFolder;
  secretKey: string;
  /** Whether the caller may read the current value to start from; if not, a new value is typed blind. */
  canRead: boolean;
  /** Holds how to leave this edit while it is open, for the table starting another one. */
  leaveRef?: RefObject<LeaveEdit>;
  onDone: () => void;
}

/** Inline value edit: Enter saves, Escape cancels. A value of several lines is edited in the drawer. */
export function ValueEditor({ folder, secretKey, canRead, leaveRef, onDone }: ValueEditorProps) {
  const current = useQuery({ ...secretQueries.value(folder, secretKey), enabled: canRead });
  const update = useUpdateSecretValue(folder);
  const [draft, setDraft] = useState<string>();
  const hintId = useId();
  const known = current.data && !current.data.secretValueHidden ? current.data.secretValue : undefined;
  const loading = canRead && current.isPending;
  const value = draft ?? known ?? "";
  const multiline = draft === undefined && known?.includes("\n");
  const confirmDiscard = useUnsavedChanges(draft !== undefined && draft !== (known ?? ""));
  useLayoutEffect(() => {
    if (!leaveRef) return;
    leaveRef.current = confirmDiscard;
    return () => {
      if (leaveRef.current === confirmDiscard) leaveRef.current = undefined;
    };
  }, [leaveRef, confirmDiscard]);

  function save() {
    if (loading || update.isPending) return;
    if (draft === undefined || draft === known) return onDone();
    update.mutate(
      { secretKey, secretValue: draft },
      {
        onSuccess: () => {
          toast.success("Value saved", secretKey);
          onDone();
        },
        onError: (error) => toast.error("Could not save the value", errorSummary(error, "The value was not saved")),
      },
    );
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
        This value has several lines: open the secret to edit it.
        <Button variant="ghost" size="sm" className="h-7" onClick={onDone}>
          OK
        </Button>
      </span>
    );
  }
  return (
    <span className="flex items-center gap-1">
      <input
        aria-label={`New value of ${secretKey}`}
        aria-describedby={hintId}
        value={value}
        disabled={loading}
        placeholder={loading ? "Reading the value…" : canRead ? "" : "Type a new value"}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
        readOnly={update.isPending}
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
        aria-label={`Save value of ${secretKey}`}
        disabled={loading}
        aria-busy={update.isPending || undefined}
        onClick={save}
      >
        {update.isPending ? <Spinner /> : <Check aria-hidden />}
      </Button>
      <Button
        variant="ghost"
        size="icon-sm"
        className="size-7"
        aria-label={`Cancel editing ${secretKey}`}
        onClick={() => confirmDiscard(onDone)}
      >
        <X aria-hidden />
      </Button>
    </span>
  );
}
