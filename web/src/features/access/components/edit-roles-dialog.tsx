import { zodResolver } from "@hookform/resolvers/zod";
import type { ProjectIdentityMembership, ProjectRoleSummary } from "@keyhold/contract";
import { Controller, useForm, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { Spinner } from "@/components/ui/spinner";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import { type IdentityRolesForm, IdentityRolesFormSchema, toRoleEntries, toRolesBody } from "../membership-form";
import { useUpdateIdentityRoles } from "../mutations";
import { RoleEntriesEditor } from "./role-entries-editor";
import { RolesChangePreview } from "./roles-change-preview";

interface EditRolesDialogProps {
  projectId: string;
  roles: readonly ProjectRoleSummary[];
  rolesError?: string | undefined;
  /** The membership being edited; undefined while the dialog is closed. */
  membership: ProjectIdentityMembership | undefined;
  onClose: () => void;
}

/** Replaces an identity's roles in the project (the server replaces the whole set). */
export function EditRolesDialog({ projectId, roles, rolesError, membership, onClose }: EditRolesDialogProps) {
  const update = useUpdateIdentityRoles(projectId);

  function handleOpenChange(open: boolean) {
    if (open || update.isPending) return;
    update.reset();
    onClose();
  }

  return (
    <Dialog open={membership !== undefined} onOpenChange={handleOpenChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Edit roles of {membership?.identity.name ?? "identity"}</DialogTitle>
          <DialogDescription>
            The roles below replace the identity's current ones. A temporary role keeps its start unless you change it.
          </DialogDescription>
        </DialogHeader>
        {membership ? (
          <EditRolesForm
            key={membership.id}
            projectId={projectId}
            membership={membership}
            roles={roles}
            rolesError={rolesError}
            update={update}
            onCancel={() => handleOpenChange(false)}
            onSaved={onClose}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

interface EditRolesFormProps {
  projectId: string;
  membership: ProjectIdentityMembership;
  roles: readonly ProjectRoleSummary[];
  rolesError: string | undefined;
  update: ReturnType<typeof useUpdateIdentityRoles>;
  onCancel: () => void;
  onSaved: () => void;
}

function EditRolesForm({ projectId, membership, roles, rolesError, update, onCancel, onSaved }: EditRolesFormProps) {
  const form = useForm<IdentityRolesForm>({
    resolver: zodResolver(IdentityRolesFormSchema),
    defaultValues: { roles: toRoleEntries(membership.roles) },
  });
  const { errors, isDirty } = form.formState;
  const confirmDiscard = useUnsavedChanges(isDirty);
  const entries = useWatch({ control: form.control, name: "roles" });

  const onSubmit = form.handleSubmit((values) =>
    update.mutateAsync({ identityId: membership.identityId, body: toRolesBody(values.roles) }).then(
      () => {
        toast.success("Roles updated", membership.identity.name);
        onSaved();
      },
      (error: unknown) => showSubmitError(form, error, ["roles"], "Could not update the roles"),
    ),
  );

  return (
    <>
      <form id="edit-roles-form" noValidate onSubmit={onSubmit} className="grid gap-5">
        <FormAlert message={errors.root?.server?.message} />
        <Controller
          control={form.control}
          name="roles"
          render={({ field }) => (
            <RoleEntriesEditor
              idPrefix="edit-roles"
              value={field.value}
              onChange={field.onChange}
              roles={roles}
              rolesError={rolesError}
              errors={errors.roles}
            />
          )}
        />
      </form>
      {isDirty ? (
        <RolesChangePreview projectId={projectId} identityId={membership.identityId} entries={entries} />
      ) : null}
      <DialogFooter>
        <Button variant="secondary" onClick={() => confirmDiscard(onCancel)} disabled={update.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="edit-roles-form"
          variant="primary"
          disabled={update.isPending}
          aria-busy={update.isPending || undefined}
        >
          {update.isPending ? <Spinner /> : null}
          Save roles
        </Button>
      </DialogFooter>
    </>
  );
}
