import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import type { SecretFolder } from "../api";
import { useCreateFolder } from "../mutations";
import { NewFolderFormSchema, type NewFolderFormValues } from "../secret-forms";

interface CreateFolderDialogProps {
  folder: SecretFolder;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function CreateFolderDialog({ folder, open, onOpenChange }: CreateFolderDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        {open ? <CreateFolderForm folder={folder} onClose={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function CreateFolderForm({ folder, onClose }: { folder: SecretFolder; onClose: () => void }) {
  const create = useCreateFolder(folder);
  const form = useForm<NewFolderFormValues>({
    resolver: zodResolver(NewFolderFormSchema),
    defaultValues: { name: "" },
    mode: "onTouched",
  });
  const { errors, isDirty } = form.formState;
  const confirmDiscard = useUnsavedChanges(isDirty);

  const onSubmit = form.handleSubmit(async ({ name }) => {
    try {
      await create.mutateAsync(name);
      toast.success("Folder created", name);
      onClose();
    } catch (error) {
      showSubmitError(form, error, ["name"], "Could not create the folder");
    }
  });

  return (
    <>
      <DialogHeader>
        <DialogTitle>New folder</DialogTitle>
        <DialogDescription>
          Inside <span className="font-mono text-foreground">{folder.secretPath}</span> of {folder.environment}.
        </DialogDescription>
      </DialogHeader>
      <form id="create-folder-form" noValidate onSubmit={onSubmit} className="grid gap-5">
        <FormAlert message={errors.root?.server?.message} />
        <Field
          id="folder-name"
          label="Name"
          error={errors.name?.message}
          description="Letters, digits, dashes and underscores."
        >
          <Input {...form.register("name")} className="font-mono" autoComplete="off" spellCheck={false} autoFocus />
        </Field>
      </form>
      <DialogFooter>
        <Button variant="secondary" onClick={() => confirmDiscard(onClose)} disabled={create.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="create-folder-form"
          variant="primary"
          disabled={create.isPending}
          aria-busy={create.isPending || undefined}
        >
          {create.isPending ? <Spinner /> : null}
          Create folder
        </Button>
      </DialogFooter>
    </>
  );
}
