import type { ComponentProps } from "react";
import { cn } from "@/lib/cn";

export const inputClasses = cn(
  "flex h-9 w-full min-w-0 rounded-md border border-input bg-card px-3 text-sm text-foreground shadow-xs",
  "transition-[color,box-shadow,border-color] outline-none placeholder:text-muted-foreground",
  "focus-visible:border-ring focus-visible:ring-3 focus-visible:ring-ring/25",
  "aria-invalid:border-destructive aria-invalid:focus-visible:ring-destructive/20",
  "disabled:cursor-not-allowed disabled:opacity-50",
);

function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  return <input data-slot="input" type={type} className={cn(inputClasses, className)} {...props} />;
}

export { Input };
