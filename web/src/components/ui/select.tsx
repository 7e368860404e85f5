import { ChevronDown } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "@/lib/cn";
import { inputClasses } from "./input";

type SelectProps = Omit<ComponentProps<"select">, "size"> & {
  /** "sm" for dense rows (a rule's conditions), beside 32 px buttons. */
  size?: "sm" | "md";
};

/**
 * The console's one select: the browser's own control, drawn like an input with a chevron. Native,
 * so the keyboard, screen readers, a phone's own picker and the dark theme's option list (through
 * `color-scheme`) come with the browser, and nothing is injected into the page at runtime, which
 * the console's style-src Content-Security-Policy would refuse. `className` styles the select itself.
 */
function Select({ className, size = "md", ...props }: SelectProps) {
  return (
    <div data-slot="select" className="relative min-w-0">
      <select
        className={cn(
          inputClasses,
          "peer appearance-none pr-9",
          size === "sm" && "h-8 pr-8 pl-2 text-[13px]",
          className,
        )}
        {...props}
      />
      <ChevronDown
        aria-hidden
        className={cn(
          "pointer-events-none absolute top-1/2 -translate-y-1/2 text-muted-foreground peer-disabled:opacity-50",
          size === "sm" ? "right-2.5 size-3.5" : "right-3 size-4",
        )}
      />
    </div>
  );
}

export { Select };
