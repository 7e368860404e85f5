import { SecretNameSchema } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { Check, X } from "lucide-react";
import { type KeyboardEvent, type RefObject, useId, useLayoutEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import type { SecretFolder } from "../api";
import { secretQueries } from "../queries";
import type { PendingChange } from "../staging/staged-changes";
import { ReferenceInput } from "./reference-input";
import type { LeaveEdit } from "./value-cell";

interface RowEditorProps {
  folder: SecretFolder;
  /** The secret's key on the server (or a staged new secret's key). */
  secretKey: string;
  pending: PendingChange | undefined;
  /** Whether the caller may read the current value to start from; if not, a new value is typed blind. */
  canRead: boolean;
  /** Holds how to leave this edit while it is open, for the table starting another one. */
  leaveRef?: RefObject<LeaveEdit>;
  keyCell: string;
  valueCell: string;
  /** Stages what changed: a new value, a new key, or both. */
  onStage: (change: { secretValue?: string; newSecretKey?: string }) => void;
  onDone: () => void;
}

/**
 * A row's inline edit, in its key and value cells: Enter stages the change (it is saved with the
 * other pending changes), Escape cancels. It starts from what is staged, else from the server's
 * value. A value of several lines is edited in the drawer.
 */
export function RowEditor(props: RowEditorProps) {
  const { folder, secretKey, pending, canRead, leaveRef, keyCell, valueCell, onStage, onDone } = props;
  const change = pending?.change;
  const stagedValue = change && change.kind !== "delete" ? change.secretValue : undefined;
  const stagedKey = change?.kind === "update" ? change.newSecretKey : undefined;
  const isNew = change?.kind === "create";
  const current = useQuery({
    ...secretQueries.value(folder, secretKey),
    enabled: canRead && stagedValue === undefined && !isNew,
  });
  const [draftValue, setDraftValue] = useState<string>();
  const [draftKey, setDraftKey] = useState<string>();
  const [keyError, setKeyError] = useState<string>();
  const hintId = useId();
  const keyErrorId = useId();
  const known = stagedValue ?? (current.data && !current.data.secretValueHidden ? current.data.secretValue : undefined);
  const loading = canRead && stagedValue === undefined && !isNew && current.isPending;
  const startKey = stagedKey ?? secretKey;
  const value = draftValue ?? known ?? "";
  const multiline = draftValue === undefined && known?.includes("\n");
  const valueChanged = draftValue !== undefined && draftValue !== (known ?? "");
  const keyChanged = draftKey !== undefined && draftKey !== startKey;
  const confirmDiscard = useUnsavedChanges(valueChanged || keyChanged);
  useLayoutEffect(() => {
    if (!leaveRef) return;
    leaveRef.current = confirmDiscard;
    return () => {
      if (leaveRef.current === confirmDiscard) leaveRef.current = undefined;
    };
  }, [leaveRef, confirmDiscard]);

  function stage() {
    if (loading) return;
    if (keyChanged) {
      const parsed = SecretNameSchema.safeParse(draftKey);
      if (!parsed.success) {
        setKeyError(parsed.error.issues[0]?.message ?? "This key is not valid");
        return;
      }
    }
    if (valueChanged || keyChanged) {
      onStage({
        ...(valueChanged ? { secretValue: draftValue } : {}),
        ...(keyChanged ? { newSecretKey: draftKey } : {}),
      });
    }
    onDone();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) {
    if (event.defaultPrevented) return;
    if (event.key === "Enter") {
      event.preventDefault();
      stage();
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      confirmDiscard(onDone);
    }
  }

  const inputClasses =
    "h-8 w-full min-w-0 rounded-md border border-ring bg-card px-2 font-mono text-[13px] outline-none ring-3 ring-ring/25";
  return (
    <>
      <td className={keyCell}>
        <input
          aria-label={`New key of ${secretKey}`}
          aria-invalid={keyError ? true : undefined}
          aria-describedby={keyError ? keyErrorId : hintId}
          value={draftKey ?? startKey}
          onChange={(event) => {
            setDraftKey(event.target.value);
            setKeyError(undefined);
          }}
          onKeyDown={onKeyDown}
          autoComplete="off"
          spellCheck={false}
          className={inputClasses}
        />
        {keyError ? (
          <span id={keyErrorId} role="alert" className="block truncate text-xs text-destructive-subtle-foreground">
            {keyError}
          </span>
        ) : null}
      </td>
      <td className={valueCell}>
        <span className="flex items-center gap-1">
          {multiline ? (
            <span className="min-w-0 flex-1 truncate text-[13px] text-muted-foreground">
              This value has several lines: open the secret to edit it.
            </span>
          ) : (
            <ReferenceInput
              folder={folder}
              selfKey={secretKey}
              aria-label={`New value of ${secretKey}`}
              aria-describedby={hintId}
              value={value}
              disabled={loading}
              placeholder={loading ? "Reading the value…" : canRead || isNew ? "" : "Type a new value"}
              onValueChange={setDraftValue}
              onKeyDown={onKeyDown}
              autoFocus
              className={inputClasses}
            />
          )}
          <span id={hintId} className="sr-only">
            Enter stages the change, to save with the others; Escape cancels. Type {"${"} to insert a reference.
          </span>
          <Button
            variant="ghost"
            size="icon-sm"
            className="size-7 shrink-0"
            aria-label={`Stage changes to ${secretKey}`}
            title="Stage (save later with the other changes)"
            disabled={loading}
            onClick={stage}
          >
            <Check aria-hidden />
          </Button>
          <Button
            variant="ghost"
            size="icon-sm"
            className="size-7 shrink-0"
            aria-label={`Cancel editing ${secretKey}`}
            onClick={() => confirmDiscard(onDone)}
          >
            <X aria-hidden />
          </Button>
        </span>
      </td>
    </>
  );
}
