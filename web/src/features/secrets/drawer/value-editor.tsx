import { Eye, EyeOff } from "lucide-react";
import { type ComponentProps, useId } from "react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { cn } from "@/lib/cn";

interface ValueEditorProps {
  id: string;
  /** The textarea's props from the form (`register("secretValue")`). */
  field: ComponentProps<"textarea">;
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
  const editing = revealed || hiddenByPermission;

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
        <Textarea
          {...field}
          id={id}
          rows={Math.min(Math.max(lineCount, 4), 14)}
          spellCheck={false}
          autoComplete="off"
          autoCorrect="off"
          autoCapitalize="off"
          placeholder={hiddenByPermission ? "Type a new value to replace the one you may not read" : "Empty value"}
          aria-invalid={error ? true : undefined}
          aria-describedby={cn(error && errorId, hiddenByPermission && hintId) || undefined}
          className="resize-y font-mono text-[13px] leading-5"
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
