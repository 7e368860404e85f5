import { zodResolver } from "@hookform/resolvers/zod";
import { Plus } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
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
import { FormAlert } from "@/components/ui/form-alert";
import { Spinner } from "@/components/ui/spinner";
import { paths } from "@/config/paths";
import { useSession } from "@/hooks/use-session";
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
import { useCreateIdentity } from "../mutations";
import { IdentityFormFields } from "./identity-form-fields";

interface CreateIdentityDialogProps {
  triggerVariant?: "primary" | "secondary";
}

export function CreateIdentityDialog({ triggerVariant = "primary" }: CreateIdentityDialogProps) {
  const [open, setOpen] = useState(false);
  const session = useSession();
  const navigate = useNavigate();
  const createIdentity = useCreateIdentity();
  const form = useForm<IdentityFormInput, unknown, IdentityFormValues>({
    resolver: zodResolver(IdentityFormSchema),
    defaultValues: toFormValues(),
  });

  function handleOpenChange(next: boolean) {
    if (createIdentity.isPending) return;
    if (!next) form.reset(toFormValues());
    setOpen(next);
  }

  const onSubmit = form.handleSubmit((values) =>
    createIdentity.mutateAsync(toCreateBody(values, session.organization.id)).then(
      (identity) => {
        toast.success("Identity created", identity.name);
        setOpen(false);
        form.reset(toFormValues());
        navigate(paths.identity.href(identity.id));
      },
      (error: unknown) => showSubmitError(form, error, identityFormFields, "Could not create the identity"),
    ),
  );

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogTrigger asChild>
        <Button variant={triggerVariant} size="sm">
          <Plus aria-hidden />
          Create identity
        </Button>
      </DialogTrigger>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Create identity</DialogTitle>
          <DialogDescription>
            A machine identity lets software authenticate to Keyhold. Add an auth method after creating it.
          </DialogDescription>
        </DialogHeader>
        <form id="create-identity-form" noValidate onSubmit={onSubmit} className="grid gap-5">
          <IdentityFormFields form={form} idPrefix="create-identity" />
          <FormAlert message={form.formState.errors.root?.server?.message} />
        </form>
        <DialogFooter>
          <Button variant="secondary" onClick={() => handleOpenChange(false)} disabled={createIdentity.isPending}>
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
      </DialogContent>
    </Dialog>
  );
}
