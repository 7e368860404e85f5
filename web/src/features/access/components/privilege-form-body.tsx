import { zodResolver } from "@hookform/resolvers/zod";
import type { IdentityPrivilege } from "@keyhold/contract";
import { Controller, useForm, useWatch } from "react-hook-form";
import { PermissionRulesEditor } from "@/components/permissions/permission-rules-editor";
import { useServerActions } from "@/components/permissions/server-actions";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import { useCreatePrivilege, useUpdatePrivilege } from "../mutations";
import {
  type PrivilegeForm as PrivilegeFormValues,
  type PrivilegeFormInput,
  PrivilegeFormSchema,
  privilegeFormFields,
  toCreatePrivilegeBody,
  toPrivilegeFormValues,
  toUpdatePrivilegeBody,
} from "../privilege-form";
import type { TemporaryAccess } from "../temporary-access";
import { PrivilegeChangePreview } from "./privilege-change-preview";
import { TemporaryAccessFields } from "./temporary-access-fields";

interface PrivilegeFormProps {
  projectId: string;
  identityId: string;
  /** The privilege being edited; a new one when absent. */
  privilege?: IdentityPrivilege;
  onCancel: () => void;
  onSaved: () => void;
}

export function PrivilegeForm({ projectId, identityId, privilege, onCancel, onSaved }: PrivilegeFormProps) {
  const serverActions = useServerActions(projectId);
  const create = useCreatePrivilege(projectId);
  const update = useUpdatePrivilege(projectId);
  const pending = create.isPending || update.isPending;
  const form = useForm<PrivilegeFormInput, unknown, PrivilegeFormValues>({
    resolver: zodResolver(PrivilegeFormSchema),
    defaultValues: toPrivilegeFormValues(privilege),
  });
  const { errors, isSubmitted, isDirty } = form.formState;
  const confirmDiscard = useUnsavedChanges(isDirty);
  const [isTemporary, temporaryRange, startMode, startAt] = useWatch({
    control: form.control,
    name: ["isTemporary", "temporaryRange", "startMode", "startAt"],
  });
  const [slug, permissions] = useWatch({ control: form.control, name: ["slug", "permissions"] });
  const access: TemporaryAccess = { isTemporary, temporaryRange, startMode, startAt };
  const setAccess = (next: TemporaryAccess) => {
    for (const key of ["isTemporary", "temporaryRange", "startMode", "startAt"] as const) {
      form.setValue(key, next[key] as never, { shouldDirty: true, shouldValidate: isSubmitted });
    }
  };

  const onSubmit = form.handleSubmit((values) => {
    const saved = privilege
      ? update.mutateAsync({ id: privilege.id, body: toUpdatePrivilegeBody(values, privilege.slug) })
      : create.mutateAsync(toCreatePrivilegeBody(values, { projectId, identityId }));
    return saved.then(
      (result) => {
        toast.success(privilege ? "Privilege updated" : "Privilege added", result.slug);
        onSaved();
      },
      (error: unknown) =>
        showSubmitError(
          form,
          error,
          privilegeFormFields,
          privilege ? "Could not update the privilege" : "Could not add the privilege",
        ),
    );
  });

  return (
    <>
      <form id="privilege-form" noValidate onSubmit={onSubmit} className="grid gap-5">
        <FormAlert message={errors.root?.server?.message} />
        <Field
          id="privilege-slug"
          label="Name"
          description={
            privilege
              ? "A slug: lowercase letters, digits and hyphens."
              : "A slug; left empty, the server makes one up."
          }
          error={errors.slug?.message}
        >
          <Input
            className="max-w-sm font-mono"
            autoComplete="off"
            spellCheck={false}
            placeholder="e.g. read-prod-secrets"
            {...form.register("slug")}
          />
        </Field>
        <TemporaryAccessFields
          idPrefix="privilege"
          noun="privilege"
          value={access}
          onChange={setAccess}
          errors={{ temporaryRange: errors.temporaryRange?.message, startAt: errors.startAt?.message }}
        />
        <Controller
          control={form.control}
          name="permissions"
          render={({ field, fieldState }) => (
            <div className="grid gap-2">
              <span className="text-[13px] font-medium">Permissions</span>
              <PermissionRulesEditor
                projectId={projectId}
                value={field.value}
                onChange={field.onChange}
                showErrors={isSubmitted}
                label="Privilege permissions"
                serverActions={serverActions}
              />
              {fieldState.error?.message ? (
                <p className="text-[13px] text-destructive-subtle-foreground">{fieldState.error.message}</p>
              ) : null}
            </div>
          )}
        />
      </form>
      <PrivilegeChangePreview
        projectId={projectId}
        identityId={identityId}
        privilegeId={privilege?.id}
        slug={slug}
        permissions={permissions}
        access={access}
      />
      <DialogFooter>
        <Button variant="secondary" onClick={() => confirmDiscard(onCancel)} disabled={pending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="privilege-form"
          variant="primary"
          disabled={pending}
          aria-busy={pending || undefined}
        >
          {pending ? <Spinner /> : null}
          {privilege ? "Save privilege" : "Add privilege"}
        </Button>
      </DialogFooter>
    </>
  );
}
