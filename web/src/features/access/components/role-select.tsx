import type { ProjectRoleSummary } from "@keyhold/contract";
import type { ComponentProps } from "react";
import { Select } from "@/components/ui/select";

type RoleSelectProps = Omit<ComponentProps<typeof Select>, "children"> & {
  roles: readonly ProjectRoleSummary[];
};

/** The project's roles: built-in roles first, then custom ones, as the server lists them. */
export function RoleSelect({ roles, ...props }: RoleSelectProps) {
  return (
    <Select {...props}>
      <option value="" disabled>
        Choose a role
      </option>
      {roles.map((role) => (
        <option key={role.slug} value={role.slug} title={role.description ?? undefined}>
          {role.name}
        </option>
      ))}
    </Select>
  );
}
