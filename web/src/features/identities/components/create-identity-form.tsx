import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { Spinner } from "@/components/ui/spinner";
import { paths } from "@/config/paths";
import { useServerFeature } from "@/hooks/use-server-feature";
import { useSession } from "@/hooks/use-session";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import {
  IdentityFormSchema,
  type IdentityFormInput,
  type IdentityFormValues,
  identityFormFields,
  toCreateBody,
  toFormValues,
} from "../identity-form";
import type { useCreateIdentity } from "../mutations";
import { IdentityFormFields } from "./identity-form-fields";

interface CreateIdentityFormProps {
  /** Owned by the dialog, which must not close while the request is in flight. */
  createIdentity: ReturnType<typeof useCreateIdentity>;
  onCancel: () => void;
  onCreated: () => void;
}

/** The body of the create-identity dialog; it mounts fresh, with default values, each time the dialog opens. */
export function CreateIdentityForm({ createIdentity, onCancel, onCreated }: CreateIdentityFormProps) {
  const session = useSession();
  const deleteProtection = useServerFeature("deleteProtection");
  const navigate = useNavigate();
  const form = useForm<IdentityFormInput, unknown, IdentityFormValues>({
    resolver: zodResolver(IdentityFormSchema),
    defaultValues: toFormValues(),
  });
  const confirmDiscard = useUnsavedChanges(form.formState.isDirty);

  // The dialog moves focus in as it opens; when the form arrives after that (its code still
  // loading), the first field takes focus here, as it would have then.
  useEffect(() => form.setFocus("name"), [form]);

  const onSubmit = form.handleSubmit((values) =>
    createIdentity.mutateAsync(toCreateBody(values, session.organization.id)).then(
      (identity) => {
        toast.success("Identity created", identity.name);
        onCreated();
        navigate(paths.identity.href(identity.id));
      },
      (error: unknown) => showSubmitError(form, error, identityFormFields, "Could not create the identity"),
    ),
  );

  return (
    <>
      <form id="create-identity-form" noValidate onSubmit={onSubmit} className="grid gap-5">
        <FormAlert message={form.formState.errors.root?.server?.message} />
        <IdentityFormFields form={form} idPrefix="create-identity" deleteProtection={deleteProtection} />
      </form>
      <DialogFooter>
        <Button variant="secondary" onClick={() => confirmDiscard(onCancel)} disabled={createIdentity.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="create-identity-form"
          variant="primary"
          disabled={createIdentity.isPending}
          aria-busy={createIdentity.isPending || undefined}
        >
          {createIdentity.isPending ? <Spinner /> : null}
          Create identity
        </Button>
      </DialogFooter>
    </>
  );
}
