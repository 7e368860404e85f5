import type { ProjectRoleSummary } from "@keyhold/contract";
import { ChevronDown } from "lucide-react";
import type { ComponentProps } from "react";
import { inputClasses } from "@/components/ui/input";
import { cn } from "@/lib/cn";

type RoleSelectProps = Omit<ComponentProps<"select">, "children"> & {
  roles: readonly ProjectRoleSummary[];
};

/**
 * The project's roles in a native select: built-in roles first, then custom ones, as the server
 * lists them. Native, so it needs no injected styles under the console's Content-Security-Policy.
 */
export function RoleSelect({ roles, className, ...props }: RoleSelectProps) {
  return (
    <div className="relative">
      <select className={cn(inputClasses, "appearance-none pr-9", className)} {...props}>
        <option value="" disabled>
          Choose a role
        </option>
        {roles.map((role) => (
          <option key={role.slug} value={role.slug} title={role.description ?? undefined}>
            {role.name}
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
