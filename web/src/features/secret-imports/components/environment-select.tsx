import type { Environment } from "@keyhold/contract";
import type { ComponentProps } from "react";
import { Select } from "@/components/ui/select";

type EnvironmentSelectProps = Omit<ComponentProps<typeof Select>, "children"> & {
  environments: readonly Pick<Environment, "slug" | "name">[];
  /** A first, empty choice asking to pick one (for forms that start without a value). */
  placeholder?: string;
};

/** The project's environments. */
export function EnvironmentSelect({ environments, placeholder, ...props }: EnvironmentSelectProps) {
  return (
    <Select {...props}>
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
    </Select>
  );
}
