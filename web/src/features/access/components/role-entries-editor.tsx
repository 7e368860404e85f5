import type { ProjectRoleSummary } from "@keyhold/contract";
import { Plus, X } from "lucide-react";
import type { FieldError, Merge } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { Label } from "@/components/ui/label";
import { newRoleEntry, type RoleEntry } from "../membership-form";
import { RoleSelect } from "./role-select";
import { TemporaryAccessFields } from "./temporary-access-fields";

type EntryErrors = Merge<FieldError, { [K in keyof RoleEntry]?: FieldError }> | undefined;
export type RoleEntriesErrors =
  | (Merge<FieldError, (EntryErrors | undefined)[]> & { root?: FieldError | undefined })
  | undefined;

interface RoleEntriesEditorProps {
  idPrefix: string;
  value: RoleEntry[];
  onChange: (next: RoleEntry[]) => void;
  roles: readonly ProjectRoleSummary[];
  /** Why the project's roles could not be loaded, when they could not. */
  rolesError?: string | undefined;
  errors: RoleEntriesErrors;
  disabled?: boolean;
}

/** The roles of a membership: each one chosen from the project's roles, permanent or temporary. */
export function RoleEntriesEditor({
  idPrefix,
  value,
  onChange,
  roles,
  rolesError,
  errors,
  disabled,
}: RoleEntriesEditorProps) {
  const listError = errors?.root?.message ?? errors?.message;
  const replace = (index: number, entry: RoleEntry) => onChange(value.map((e, i) => (i === index ? entry : e)));
  const unused = roles.find((role) => !value.some((entry) => entry.role === role.slug));

  return (
    <fieldset className="grid gap-3" disabled={disabled}>
      <legend className="mb-2 text-[13px] font-medium">Roles</legend>
      {rolesError ? <FormAlert message={rolesError} /> : null}
      <ol className="grid gap-3">
        {value.map((entry, index) => {
          const id = `${idPrefix}-role-${index}`;
          const entryErrors = errors?.[index] as EntryErrors;
          const roleError = entryErrors?.role?.message;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: entries have no identity of their own; the index is the entry
            <li key={index} className="grid gap-3 rounded-lg border border-border p-3">
              <div className="flex items-end gap-2">
                <div className="grid min-w-0 flex-1 gap-2">
                  <Label htmlFor={id}>{value.length > 1 ? `Role ${index + 1}` : "Role"}</Label>
                  <RoleSelect
                    id={id}
                    roles={roles}
                    value={entry.role}
                    onChange={(event) => replace(index, { ...entry, role: event.target.value })}
                    aria-invalid={roleError ? true : undefined}
                    aria-describedby={roleError ? `${id}-error` : undefined}
                  />
                </div>
                {value.length > 1 ? (
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove role ${index + 1}`}
                    onClick={() => onChange(value.filter((_, i) => i !== index))}
                  >
                    <X aria-hidden />
                  </Button>
                ) : null}
              </div>
              {roleError ? (
                <p id={`${id}-error`} className="-mt-1 text-[13px] text-destructive-subtle-foreground">
                  {roleError}
                </p>
              ) : null}
              <TemporaryAccessFields
                idPrefix={id}
                noun="role"
                value={entry}
                onChange={(access) => replace(index, { ...entry, ...access })}
                errors={{
                  temporaryRange: entryErrors?.temporaryRange?.message,
                  startAt: entryErrors?.startAt?.message,
                }}
              />
            </li>
          );
        })}
      </ol>
      {listError ? <p className="text-[13px] text-destructive-subtle-foreground">{listError}</p> : null}
      <div>
        <Button size="sm" variant="secondary" onClick={() => onChange([...value, newRoleEntry(unused?.slug ?? "")])}>
          <Plus aria-hidden />
          Add another role
        </Button>
      </div>
    </fieldset>
  );
}
