import type { ComponentProps } from "react";
import { cn } from "@/lib/cn";

/** The textarea's look, for a field that renders its own textarea (one with suggestions). */
const textareaClasses = cn(
  "flex min-h-20 w-full min-w-0 rounded-md border border-input bg-card px-3 py-2 text-sm text-foreground shadow-xs",
  "transition-[color,box-shadow,border-color] outline-none placeholder:text-muted-foreground",
  "focus-visible:border-ring focus-visible:ring-3 focus-visible:ring-ring/25",
  "aria-invalid:border-destructive aria-invalid:focus-visible:ring-destructive/20",
  "disabled:cursor-not-allowed disabled:opacity-50",
);

function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea data-slot="textarea" className={cn(textareaClasses, className)} {...props} />;
}

export { Textarea, textareaClasses };
