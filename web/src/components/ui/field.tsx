import { Slot } from "@radix-ui/react-slot";
import type { ReactNode } from "react";
import { cn } from "@/lib/cn";
import { Label } from "./label";

interface FieldProps {
  id: string;
  label: ReactNode;
  description?: ReactNode;
  error?: string | undefined;
  className?: string;
  /** Visually hide the label (it still names the control). */
  hideLabel?: boolean;
  /** The control; it receives `id`, `aria-invalid` and `aria-describedby`. */
  children: ReactNode;
}

/** A label, a control, help text and an error message, wired together for assistive technology. */
function Field({ id, label, description, error, className, hideLabel = false, children }: FieldProps) {
  const descriptionId = description ? `${id}-description` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, descriptionId].filter(Boolean).join(" ") || undefined;
  return (
    <div data-slot="field" className={cn("grid gap-2", className)}>
      <Label htmlFor={id} className={hideLabel ? "sr-only" : undefined}>
        {label}
      </Label>
      <Slot id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy}>
        {children}
      </Slot>
      {error ? (
        <p id={errorId} className="text-[13px] text-destructive-subtle-foreground">
          {error}
        </p>
      ) : null}
      {description ? (
        <p id={descriptionId} className="text-[13px] text-muted-foreground">
          {description}
        </p>
      ) : null}
    </div>
  );
}

export { Field };
