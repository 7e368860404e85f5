import { zodResolver } from "@hookform/resolvers/zod";
import type { ProjectRoleSummary } from "@keyhold/contract";
import { MailPlus } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
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
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import { type InviteForm, InviteFormSchema, splitEmails, toInviteBody } from "../invite-form";
import { DEFAULT_PROJECT_ROLE } from "../membership-form";
import { useInviteUsers } from "../mutations";
import { GuardedButton } from "./guarded-button";
import { RoleSelect } from "./role-select";

interface InviteUsersDialogProps {
  projectId: string;
  roles: readonly ProjectRoleSummary[];
  rolesError?: string | undefined;
  deniedReason: string | undefined;
}

export function InviteUsersDialog({ projectId, roles, rolesError, deniedReason }: InviteUsersDialogProps) {
  const [open, setOpen] = useState(false);
  const invite = useInviteUsers(projectId);

  function handleOpenChange(next: boolean) {
    if (invite.isPending) return;
    if (!next) invite.reset();
    setOpen(next);
  }

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        <GuardedButton variant="primary" size="sm" deniedReason={deniedReason}>
          <MailPlus aria-hidden />
          Invite users
        </GuardedButton>
      </DialogTrigger>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Invite users</DialogTitle>
          <DialogDescription>
            People you invite become members of this project with the role you choose.
          </DialogDescription>
        </DialogHeader>
        {open ? (
          <InviteFormBody
            roles={roles}
            rolesError={rolesError}
            invite={invite}
            onCancel={() => handleOpenChange(false)}
            onInvited={() => setOpen(false)}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

interface InviteFormBodyProps {
  roles: readonly ProjectRoleSummary[];
  rolesError: string | undefined;
  invite: ReturnType<typeof useInviteUsers>;
  onCancel: () => void;
  onInvited: () => void;
}

function InviteFormBody({ roles, rolesError, invite, onCancel, onInvited }: InviteFormBodyProps) {
  const form = useForm<InviteForm>({
    resolver: zodResolver(InviteFormSchema),
    defaultValues: {
      emails: "",
      roleSlug: roles.some((r) => r.slug === DEFAULT_PROJECT_ROLE) ? DEFAULT_PROJECT_ROLE : "",
    },
  });
  const { errors, isDirty } = form.formState;
  const confirmDiscard = useUnsavedChanges(isDirty);

  const onSubmit = form.handleSubmit((values) =>
    invite.mutateAsync(toInviteBody(values)).then(
      () => {
        const count = splitEmails(values.emails).length;
        toast.success(count === 1 ? "User invited" : `${count} users invited`);
        onInvited();
      },
      (error: unknown) => showSubmitError(form, error, ["emails", "roleSlug"], "Could not invite the users"),
    ),
  );

  return (
    <>
      <form id="invite-users-form" noValidate onSubmit={onSubmit} className="grid gap-5">
        <FormAlert message={errors.root?.server?.message} />
        <Field
          id="invite-emails"
          label="E-mail addresses"
          description="Separate several addresses with commas or new lines, for example: ada@example.com, grace@example.com"
          error={errors.emails?.message}
        >
          <Textarea rows={3} {...form.register("emails")} />
        </Field>
        <Field id="invite-role" label="Role" error={errors.roleSlug?.message ?? rolesError}>
          <RoleSelect roles={roles} {...form.register("roleSlug")} />
        </Field>
      </form>
      <DialogFooter>
        <Button variant="secondary" onClick={() => confirmDiscard(onCancel)} disabled={invite.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="invite-users-form"
          variant="primary"
          disabled={invite.isPending}
          aria-busy={invite.isPending || undefined}
        >
          {invite.isPending ? <Spinner /> : null}
          Invite
        </Button>
      </DialogFooter>
    </>
  );
}
