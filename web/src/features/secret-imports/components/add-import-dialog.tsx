import type { Environment } from "@keyhold/contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
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
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { Spinner } from "@/components/ui/spinner";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import type { ImportingFolder } from "../api";
import { type ImportFormInput, type ImportFormValues, importFormFields, importFormSchema } from "../import-form";
import { useCreateImport } from "../mutations";
import { type ImportRow, sourceLabel } from "../provided-keys";
import { sourceFolderExists } from "../queries";
import { EnvironmentSelect } from "./environment-select";
import { SourceFolderPicker } from "./source-folder-picker";

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
  const queryClient = useQueryClient();
  const form = useForm<ImportFormInput, unknown, ImportFormValues>({
    resolver: zodResolver(
      importFormSchema(folder, existing, (environment, path) =>
        sourceFolderExists(queryClient, folder.projectId, environment, path),
      ),
    ),
    defaultValues: { environment: "", path: "/" },
  });
  const { errors, isDirty } = form.formState;
  const confirmDiscard = useUnsavedChanges(isDirty);
  const sourceEnvironment = useWatch({ control: form.control, name: "environment" });

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
        <FormAlert message={errors.root?.server?.message} />
        <Field id="import-environment" label="Source environment" error={errors.environment?.message}>
          <EnvironmentSelect
            environments={environments}
            placeholder="Choose an environment"
            {...form.register("environment")}
          />
        </Field>
        <Controller
          control={form.control}
          name="path"
          render={({ field, fieldState }) => (
            <div className="grid gap-2">
              {/* The input is named by the picker itself; this is the visible label. */}
              <span aria-hidden className="text-[13px] font-medium leading-none">
                Source folder path
              </span>
              <SourceFolderPicker
                projectId={folder.projectId}
                environment={sourceEnvironment}
                label="Source folder path"
                value={field.value ?? ""}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                invalid={fieldState.invalid}
                describedBy={fieldState.error ? "import-path-error import-path-description" : "import-path-description"}
              />
              {fieldState.error ? (
                <p id="import-path-error" className="text-[13px] text-destructive-subtle-foreground">
                  {fieldState.error.message}
                </p>
              ) : null}
              <p id="import-path-description" className="text-[13px] text-muted-foreground">
                The folder whose secrets are imported: type a path or choose one of the environment&apos;s folders.
              </p>
            </div>
          )}
        />
      </form>
      <DialogFooter>
        <Button variant="secondary" onClick={() => confirmDiscard(onCancel)} disabled={pending}>
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
