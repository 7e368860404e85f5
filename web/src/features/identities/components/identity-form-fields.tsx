import { Controller, type UseFormReturn, useWatch } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import type { FeatureState } from "@/hooks/use-server-feature";
import type { IdentityFormInput, IdentityFormValues } from "../identity-form";
import { ORG_ROLES } from "@/config/org-roles";
import { MetadataFields } from "./metadata-fields";
import { NamesakeWarning } from "./namesake-warning";

function roleDescription(slug: string): string {
  const known = ORG_ROLES.find((role) => role.slug === slug);
  return known?.description ?? "What this identity may do across the organization.";
}

export type IdentityForm = UseFormReturn<IdentityFormInput, unknown, IdentityFormValues>;

interface IdentityFormFieldsProps {
  form: IdentityForm;
  /** Keeps element ids unique when two forms could share a page. */
  idPrefix: string;
  /** Why the role cannot be changed here, when it cannot. */
  roleLockedReason?: string | undefined;
  /** Whether the server supports delete protection (older servers do not). */
  deleteProtection?: FeatureState;
  /** The identity being edited, when it is not a new one. */
  identityId?: string | undefined;
}

/** Name, organisation role, delete protection and metadata: shared by create and edit. */
export function IdentityFormFields({
  form,
  idPrefix,
  roleLockedReason,
  deleteProtection = { available: true },
  identityId,
}: IdentityFormFieldsProps) {
  const { register, control, formState } = form;
  const { errors } = formState;
  const id = (name: string) => `${idPrefix}-${name}`;
  const name = useWatch({ control, name: "name" }) ?? "";

  return (
    <div className="grid gap-5">
      {/* The warning joins the name's block, so while empty it takes no room. */}
      <div>
        <Field id={id("name")} label="Name" error={errors.name?.message}>
          <Input autoComplete="off" spellCheck={false} placeholder="e.g. ci-deployer" {...register("name")} />
        </Field>
        <NamesakeWarning
          id={id("namesakes")}
          name={name}
          savedName={formState.defaultValues?.name ?? ""}
          identityId={identityId}
        />
      </div>

      <Controller
        control={control}
        name="role"
        render={({ field, fieldState }) => (
          <Field
            id={id("role")}
            label="Organization role"
            error={fieldState.error?.message}
            description={roleLockedReason ?? roleDescription(field.value)}
          >
            <Select
              ref={field.ref}
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              disabled={roleLockedReason !== undefined}
            >
              {field.value === "" ? (
                <option value="" disabled>
                  Choose a role
                </option>
              ) : null}
              {ORG_ROLES.map((role) => (
                <option key={role.slug} value={role.slug}>
                  {role.label}
                </option>
              ))}
              {field.value !== "" && ORG_ROLES.every((role) => role.slug !== field.value) ? (
                <option value={field.value}>{field.value}</option>
              ) : null}
            </Select>
          </Field>
        )}
      />

      <Controller
        control={control}
        name="hasDeleteProtection"
        render={({ field }) => (
          <div className="flex items-start justify-between gap-4 rounded-lg border border-border bg-surface p-3">
            <div className="grid gap-1">
              <Label htmlFor={id("delete-protection")}>Delete protection</Label>
              <p id={id("delete-protection-description")} className="text-[13px] text-muted-foreground">
                {deleteProtection.available
                  ? "While on, this identity cannot be deleted."
                  : `Not available: ${deleteProtection.reason ?? "this server does not support it."}`}
              </p>
            </div>
            <Switch
              id={id("delete-protection")}
              ref={field.ref}
              disabled={!deleteProtection.available}
              checked={field.value && deleteProtection.available}
              onCheckedChange={field.onChange}
              onBlur={field.onBlur}
              aria-describedby={id("delete-protection-description")}
            />
          </div>
        )}
      />

      <MetadataFields form={form} idPrefix={idPrefix} />
    </div>
  );
}
