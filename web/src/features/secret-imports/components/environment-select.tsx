import type { Environment } from "@keyhold/contract";
import { ChevronDown } from "lucide-react";
import type { ComponentProps } from "react";
import { inputClasses } from "@/components/ui/input";
import { cn } from "@/lib/cn";

type EnvironmentSelectProps = Omit<ComponentProps<"select">, "children"> & {
  environments: readonly Pick<Environment, "slug" | "name">[];
  /** A first, empty choice asking to pick one (for forms that start without a value). */
  placeholder?: string;
};

/** The project's environments in a native select (no injected styles under the console's CSP). */
export function EnvironmentSelect({ environments, placeholder, className, ...props }: EnvironmentSelectProps) {
  return (
    <div className="relative">
      <select className={cn(inputClasses, "appearance-none pr-9", className)} {...props}>
        {placeholder ? (
          <option value="" disabled>
            {placeholder}
          </option>
        ) : null}
        {environments.map((env) => (
          <option key={env.slug} value={env.slug}>
            {env.name} ({env.slug})
          </option>
        ))}
      </select>
      <ChevronDown
        aria-hidden
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground"
      />
    </div>
  );
}
