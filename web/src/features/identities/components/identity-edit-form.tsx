import { zodResolver } from "@hookform/resolvers/zod";
import { useSuspenseQuery } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/form-alert";
import { useServerFeature } from "@/hooks/use-server-feature";
import { useSession } from "@/hooks/use-session";
import { Spinner } from "@/components/ui/spinner";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import {
  IdentityFormSchema,
  type IdentityFormInput,
  type IdentityFormValues,
  identityFormFields,
  toFormValues,
  toUpdateBody,
} from "../identity-form";
import { useUpdateIdentity } from "../mutations";
import { identityQueries } from "../queries";
import { IdentityFormFields } from "./identity-form-fields";
import { useIdentityId } from "./use-identity-id";

export function IdentityEditForm() {
  const identityId = useIdentityId();
  const { data: membership } = useSuspenseQuery(identityQueries.detail(identityId));
  const updateIdentity = useUpdateIdentity(identityId);
  const isSignedInIdentity = useSession().identity.id === membership.identity.id;
  const deleteProtection = useServerFeature("deleteProtection");
  const form = useForm<IdentityFormInput, unknown, IdentityFormValues>({
    resolver: zodResolver(IdentityFormSchema),
    defaultValues: toFormValues(membership),
  });
  const { isDirty } = form.formState;
  useUnsavedChanges(isDirty);
  const pending = updateIdentity.isPending;

  const onSubmit = form.handleSubmit((values) =>
    updateIdentity.mutateAsync(toUpdateBody(values)).then(
      (identity) => {
        toast.success("Changes saved", identity.name);
        form.reset(values);
      },
      (error: unknown) => showSubmitError(form, error, identityFormFields, "Could not save the changes"),
    ),
  );

  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby="edit-identity-heading" className="max-w-2xl">
      <section className="rounded-xl border border-border bg-card shadow-xs">
        <div className="border-b border-border px-5 py-4">
          <h2 id="edit-identity-heading" className="text-sm font-semibold">
            Edit identity
          </h2>
          <p className="mt-1 text-[13px] text-muted-foreground">
            Metadata is saved as a whole: rows removed here are deleted.
          </p>
        </div>
        <div className="grid gap-5 p-5">
          <FormAlert message={form.formState.errors.root?.server?.message} />
          <IdentityFormFields
            form={form}
            idPrefix="edit-identity"
            identityId={identityId}
            deleteProtection={deleteProtection}
            roleLockedReason={
              isSignedInIdentity
                ? "You are signed in as this identity, so its role can only be changed by another admin."
                : undefined
            }
          />
        </div>
        <div className="flex items-center justify-end gap-2 rounded-b-xl border-t border-border bg-surface px-5 py-3">
          <Button variant="secondary" size="sm" disabled={!isDirty || pending} onClick={() => form.reset()}>
            Discard changes
          </Button>
          <Button
            type="submit"
            variant="primary"
            size="sm"
            disabled={!isDirty || pending}
            aria-busy={pending || undefined}
          >
            {pending ? <Spinner /> : null}
            Save changes
          </Button>
        </div>
      </section>
    </form>
  );
}
