import type { ComponentProps } from "react";
import { cn } from "@/lib/cn";

/** A form label. A native `<label>`: `select-none` already keeps a double click from selecting its text. */
function Label({ className, ...props }: ComponentProps<"label">) {
  return (
    <label
      data-slot="label"
      className={cn("text-[13px] font-medium leading-none text-foreground select-none", className)}
      {...props}
    />
  );
}

export { Label };
