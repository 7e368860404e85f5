import { Eye, EyeOff } from "lucide-react";
import { type RefCallback, useId } from "react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { textareaClasses } from "@/components/ui/textarea";
import { cn } from "@/lib/cn";
import type { SecretFolder } from "../api";
import { ReferenceFlags, useReferenceIssues } from "../components/reference-flags";
import { ReferenceInput } from "../components/reference-input";

interface ValueEditorProps {
  id: string;
  /** The folder the secret is in: references are suggested and checked from it. */
  folder: SecretFolder;
  /** The secret's key, not offered as a reference to itself. */
  secretKey: string;
  /** The form's value field (`useController`). */
  field: {
    value: string;
    onChange: (value: string) => void;
    onBlur: () => void;
    ref: RefCallback<HTMLTextAreaElement>;
  };
  /** How many lines the value has now, to size the editor. */
  lineCount: number;
  revealed: boolean;
  onRevealedChange: (revealed: boolean) => void;
  /** The caller may know the secret exists but not read its value. */
  hiddenByPermission: boolean;
  error?: string | undefined;
}

const MASK = "•".repeat(24);

/**
 * The secret's value, masked until revealed: the text itself is not in the page until then.
 * Revealed, it is a multiline editor in a monospace font.
 */
export function ValueEditor({
  id,
  folder,
  secretKey,
  field,
  lineCount,
  revealed,
  onRevealedChange,
  hiddenByPermission,
  error,
}: ValueEditorProps) {
  const labelId = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const refsId = `${id}-references`;
  const editing = revealed || hiddenByPermission;
  // Checked while shown, against the folder's names (never values).
  const issues = useReferenceIssues(folder, editing && field.value.includes("${") ? field.value : undefined);

  return (
    <div className="grid gap-2">
      <div className="flex h-7 items-center justify-between gap-2">
        <Label id={labelId} htmlFor={editing ? id : undefined}>
          Value
        </Label>
        {hiddenByPermission ? null : (
          <Button
            variant="ghost"
            size="sm"
            className="h-7 px-2 text-muted-foreground"
            aria-controls={editing ? id : undefined}
            aria-pressed={revealed}
            onClick={() => onRevealedChange(!revealed)}
          >
            {revealed ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
            {revealed ? "Hide value" : "Reveal value"}
          </Button>
        )}
      </div>
      {editing ? (
        <ReferenceInput
          multiline
          folder={folder}
          selfKey={secretKey}
          value={field.value}
          onValueChange={field.onChange}
          onBlur={field.onBlur}
          fieldRef={field.ref}
          id={id}
          rows={Math.min(Math.max(lineCount, 4), 14)}
          autoCorrect="off"
          autoCapitalize="off"
          placeholder={hiddenByPermission ? "Type a new value to replace the one you may not read" : "Empty value"}
          aria-invalid={error ? true : undefined}
          aria-describedby={cn(error && errorId, hiddenByPermission && hintId, refsId) || undefined}
          className={cn(textareaClasses, "resize-y font-mono text-[13px] leading-5")}
        />
      ) : (
        <button
          type="button"
          aria-labelledby={labelId}
          aria-describedby={hintId}
          onClick={() => onRevealedChange(true)}
          className={cn(
            "flex h-20 w-full items-start rounded-md border border-input bg-surface px-3 py-2 text-left font-mono text-[13px]",
            "text-muted-foreground outline-none transition-colors hover:bg-hover focus-visible:ring-3 focus-visible:ring-ring/25",
          )}
        >
          <span aria-hidden>{MASK}</span>
        </button>
      )}
      {editing ? (
        <p id={refsId} className="sr-only">
          Type {"${"} to insert a reference to another secret.
        </p>
      ) : null}
      <ReferenceFlags issues={issues} />
      {error ? (
        <p id={errorId} className="text-[13px] text-destructive-subtle-foreground">
          {error}
        </p>
      ) : null}
      {hiddenByPermission ? (
        <p id={hintId} className="text-[13px] text-muted-foreground">
          Your permissions let you see that this secret exists, not its value.
        </p>
      ) : editing ? null : (
        <p id={hintId} className="sr-only">
          Hidden. Reveal to read or edit it.
        </p>
      )}
    </div>
  );
}
