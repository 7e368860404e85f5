import type { Environment } from "@keyhold/contract";
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
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import type { ImportingFolder } from "../api";
import { type ImportFormInput, type ImportFormValues, importFormFields, importFormSchema } from "../import-form";
import { useCreateImport } from "../mutations";
import { type ImportRow, sourceLabel } from "../provided-keys";
import { EnvironmentSelect } from "./environment-select";

interface AddImportDialogProps {
  folder: ImportingFolder;
  environments: readonly Pick<Environment, "slug" | "name">[];
  existing: readonly ImportRow[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Adds an import to the shown folder; it goes last, so it wins the keys it shares with earlier ones. */
export function AddImportDialog({ folder, environments, existing, open, onOpenChange }: AddImportDialogProps) {
  const create = useCreateImport(folder);

  function handleOpenChange(next: boolean) {
    if (create.isPending) return;
    if (!next) create.reset();
    onOpenChange(next);
  }

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Add import</DialogTitle>
          <DialogDescription>
            Secrets of the chosen folder become readable in{" "}
            <code className="font-mono text-xs text-foreground">
              {sourceLabel({ importEnv: { slug: folder.environment, name: "" }, importPath: folder.path })}
            </code>
            . The new import goes last in the order.
          </DialogDescription>
        </DialogHeader>
        {/* Mounted per opening, so the form starts empty. */}
        {open ? (
          <ImportForm
            folder={folder}
            environments={environments}
            existing={existing}
            pending={create.isPending}
            submit={(values) => create.mutateAsync(values)}
            onDone={(values) => {
              toast.success("Import added", `${values.environment}:${values.path}`);
              onOpenChange(false);
            }}
            onCancel={() => handleOpenChange(false)}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

interface ImportFormProps {
  folder: ImportingFolder;
  environments: readonly Pick<Environment, "slug" | "name">[];
  existing: readonly ImportRow[];
  pending: boolean;
  submit: (values: ImportFormValues) => Promise<unknown>;
  onDone: (values: ImportFormValues) => void;
  onCancel: () => void;
}

function ImportForm({ folder, environments, existing, pending, submit, onDone, onCancel }: ImportFormProps) {
  const form = useForm<ImportFormInput, unknown, ImportFormValues>({
    resolver: zodResolver(importFormSchema(folder, existing)),
    defaultValues: { environment: "", path: "/" },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) =>
    submit(values).then(
      () => onDone(values),
      // A cyclic import, a missing folder or environment: the server's reason, as it words it.
      (error: unknown) => showSubmitError(form, error, importFormFields, "Could not add the import"),
    ),
  );

  return (
    <>
      <form id="add-import-form" noValidate onSubmit={onSubmit} className="grid gap-5">
        <Field id="import-environment" label="Source environment" error={errors.environment?.message}>
          <EnvironmentSelect
            environments={environments}
            placeholder="Choose an environment"
            {...form.register("environment")}
          />
        </Field>
        <Field
          id="import-path"
          label="Source folder path"
          error={errors.path?.message}
          description="The folder whose secrets are imported, for example / or /database."
        >
          <Input autoComplete="off" spellCheck={false} className="font-mono text-[13px]" {...form.register("path")} />
        </Field>
        <FormAlert message={errors.root?.server?.message} />
      </form>
      <DialogFooter>
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="add-import-form"
          variant="primary"
          disabled={pending}
          aria-busy={pending || undefined}
        >
          {pending ? <Spinner /> : null}
          Add import
        </Button>
      </DialogFooter>
    </>
  );
}
