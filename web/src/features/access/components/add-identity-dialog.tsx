import { zodResolver } from "@hookform/resolvers/zod";
import type { ProjectRoleSummary } from "@keyhold/contract";
import { Plus } from "lucide-react";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { IdentityName } from "@/components/identities/identity-name";
import { FormAlert } from "@/components/ui/form-alert";
import { Spinner } from "@/components/ui/spinner";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import {
  type AddIdentityForm,
  AddIdentityFormSchema,
  DEFAULT_PROJECT_ROLE,
  newRoleEntry,
  toRolesBody,
} from "../membership-form";
import { useAddIdentity } from "../mutations";
import { GuardedButton } from "./guarded-button";
import { IdentityPicker } from "./identity-picker";
import { RoleEntriesEditor } from "./role-entries-editor";

interface AddIdentityDialogProps {
  projectId: string;
  roles: readonly ProjectRoleSummary[];
  rolesError?: string | undefined;
  memberIds: ReadonlySet<string>;
  deniedReason: string | undefined;
  /** Called with the identity just added, so the page can show it. */
  onAdded?: (identityId: string) => void;
}

export function AddIdentityDialog({
  projectId,
  roles,
  rolesError,
  memberIds,
  deniedReason,
  onAdded,
}: AddIdentityDialogProps) {
  const [open, setOpen] = useState(false);
  const addIdentity = useAddIdentity(projectId);

  function handleOpenChange(next: boolean) {
    if (addIdentity.isPending) return;
    if (!next) addIdentity.reset();
    setOpen(next);
  }

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        <GuardedButton variant="primary" size="sm" deniedReason={deniedReason}>
          <Plus aria-hidden />
          Add identity
        </GuardedButton>
      </DialogTrigger>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Add identity to project</DialogTitle>
          <DialogDescription>
            Choose an identity of your organization and the roles it has in this project. A temporary role ends by
            itself.
          </DialogDescription>
        </DialogHeader>
        {open ? (
          <AddIdentityFormBody
            roles={roles}
            rolesError={rolesError}
            memberIds={memberIds}
            addIdentity={addIdentity}
            onCancel={() => handleOpenChange(false)}
            onAdded={(identityId) => {
              setOpen(false);
              onAdded?.(identityId);
            }}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

interface AddIdentityFormBodyProps {
  roles: readonly ProjectRoleSummary[];
  rolesError: string | undefined;
  memberIds: ReadonlySet<string>;
  addIdentity: ReturnType<typeof useAddIdentity>;
  onCancel: () => void;
  onAdded: (identityId: string) => void;
}

function AddIdentityFormBody({
  roles,
  rolesError,
  memberIds,
  addIdentity,
  onCancel,
  onAdded,
}: AddIdentityFormBodyProps) {
  const [chosenName, setChosenName] = useState("");
  const [chosenNamesake, setChosenNamesake] = useState(false);
  const defaultRole = roles.some((r) => r.slug === DEFAULT_PROJECT_ROLE) ? DEFAULT_PROJECT_ROLE : "";
  const form = useForm<AddIdentityForm>({
    resolver: zodResolver(AddIdentityFormSchema),
    defaultValues: { identityId: "", roles: [newRoleEntry(defaultRole)] },
  });
  const { errors, isDirty } = form.formState;
  const confirmDiscard = useUnsavedChanges(isDirty);

  const onSubmit = form.handleSubmit((values) =>
    addIdentity.mutateAsync({ identityId: values.identityId, body: toRolesBody(values.roles) }).then(
      () => {
        toast.success("Identity added", chosenName);
        onAdded(values.identityId);
      },
      (error: unknown) => showSubmitError(form, error, ["identityId", "roles"], "Could not add the identity"),
    ),
  );

  return (
    <>
      <form id="add-identity-form" noValidate onSubmit={onSubmit} className="grid gap-5">
        <FormAlert message={errors.root?.server?.message} />
        <Controller
          control={form.control}
          name="identityId"
          render={({ field, fieldState }) => (
            <div className="grid gap-2">
              {/* The search box is named "Identity" by the picker itself; this is the visible label. */}
              <span aria-hidden className="text-[13px] font-medium leading-none">
                Identity
              </span>
              <IdentityPicker
                id="add-identity-search"
                value={field.value}
                memberIds={memberIds}
                invalid={fieldState.invalid}
                describedBy={fieldState.error ? "add-identity-search-error" : "add-identity-chosen"}
                onChange={(identityId, name, namesake) => {
                  field.onChange(identityId);
                  setChosenName(name);
                  setChosenNamesake(namesake);
                }}
              />
              {fieldState.error ? (
                <p id="add-identity-search-error" className="text-[13px] text-destructive-subtle-foreground">
                  {fieldState.error.message}
                </p>
              ) : (
                <p id="add-identity-chosen" className="text-[13px] text-muted-foreground" aria-live="polite">
                  {chosenName ? (
                    <>
                      Chosen:{" "}
                      <span className="font-medium text-foreground">
                        <IdentityName name={chosenName} id={field.value} namesake={chosenNamesake} />
                      </span>
                    </>
                  ) : (
                    "No identity chosen yet."
                  )}
                </p>
              )}
            </div>
          )}
        />
        <Controller
          control={form.control}
          name="roles"
          render={({ field }) => (
            <RoleEntriesEditor
              idPrefix="add-identity"
              value={field.value}
              onChange={field.onChange}
              roles={roles}
              rolesError={rolesError}
              errors={errors.roles}
            />
          )}
        />
      </form>
      <DialogFooter>
        <Button variant="secondary" onClick={() => confirmDiscard(onCancel)} disabled={addIdentity.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="add-identity-form"
          variant="primary"
          disabled={addIdentity.isPending}
          aria-busy={addIdentity.isPending || undefined}
        >
          {addIdentity.isPending ? <Spinner /> : null}
          Add identity
        </Button>
      </DialogFooter>
    </>
  );
}
