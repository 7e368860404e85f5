import { Controller, type UseFormReturn } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectItemText, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import type { FeatureState } from "@/hooks/use-server-feature";
import type { IdentityFormInput, IdentityFormValues } from "../identity-form";
import { ORG_ROLES } from "../org-roles";
import { MetadataFields } from "./metadata-fields";

export type IdentityForm = UseFormReturn<IdentityFormInput, unknown, IdentityFormValues>;

interface IdentityFormFieldsProps {
  form: IdentityForm;
  /** Keeps element ids unique when two forms could share a page. */
  idPrefix: string;
  /** Why the role cannot be changed here, when it cannot. */
  roleLockedReason?: string | undefined;
  /** Whether the server supports delete protection (older servers do not). */
  deleteProtection?: FeatureState;
}

/** Name, organisation role, delete protection and metadata: shared by create and edit. */
export function IdentityFormFields({
  form,
  idPrefix,
  roleLockedReason,
  deleteProtection = { available: true },
}: IdentityFormFieldsProps) {
  const { register, control, formState } = form;
  const { errors } = formState;
  const id = (name: string) => `${idPrefix}-${name}`;

  return (
    <div className="grid gap-5">
      <Field id={id("name")} label="Name" error={errors.name?.message}>
        <Input autoComplete="off" spellCheck={false} placeholder="e.g. ci-deployer" {...register("name")} />
      </Field>

      <Controller
        control={control}
        name="role"
        render={({ field, fieldState }) => {
          const custom = ORG_ROLES.every((role) => role.slug !== field.value) && field.value !== "";
          return (
            // The Select root renders no element, so the field's id and descriptions go on the trigger.
            <Select
              value={field.value}
              onValueChange={field.onChange}
              name={field.name}
              disabled={roleLockedReason !== undefined}
            >
              <Field
                id={id("role")}
                label="Organization role"
                error={fieldState.error?.message}
                description={roleLockedReason ?? "What this identity may do across the organization."}
              >
                <SelectTrigger ref={field.ref} onBlur={field.onBlur}>
                  <SelectValue placeholder="Choose a role" />
                </SelectTrigger>
              </Field>
              <SelectContent>
                {ORG_ROLES.map((role) => (
                  <SelectItem key={role.slug} value={role.slug}>
                    <div className="grid gap-0.5">
                      <SelectItemText>{role.label}</SelectItemText>
                      <span className="text-xs text-muted-foreground">{role.description}</span>
                    </div>
                  </SelectItem>
                ))}
                {custom ? (
                  <SelectItem value={field.value}>
                    <SelectItemText>{field.value}</SelectItemText>
                  </SelectItem>
                ) : null}
              </SelectContent>
            </Select>
          );
        }}
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
