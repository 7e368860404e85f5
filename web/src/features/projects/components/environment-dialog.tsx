import type { Environment } from "@keyhold/contract";
import { zodResolver } from "@hookform/resolvers/zod";
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
} from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import {
  changedEnvironmentFields,
  type EnvironmentFormInput,
  EnvironmentFormSchema,
  type EnvironmentFormValues,
  environmentFormFields,
  environmentSlugFrom,
  toEnvironmentFormValues,
} from "../environment-form";
import { useCreateEnvironment, useUpdateEnvironment } from "../mutations";

interface EnvironmentDialogProps {
  projectId: string;
  /** The environment to rename; absent to add one. */
  environment?: Environment | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Add an environment, or rename one (name and slug). */
export function EnvironmentDialog({ projectId, environment, open, onOpenChange }: EnvironmentDialogProps) {
  const create = useCreateEnvironment(projectId);
  const update = useUpdateEnvironment(projectId);
  const pending = create.isPending || update.isPending;

  function handleOpenChange(next: boolean) {
    if (pending) return;
    onOpenChange(next);
  }

  const title = environment ? "Rename environment" : "Add environment";
  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            {environment
              ? "Secrets stay in the environment; clients that address it by its old slug must use the new one."
              : "Each environment holds its own values of the project's secrets."}
          </DialogDescription>
        </DialogHeader>
        {/* Mounted per opening, so the form starts from the environment's current values. */}
        {open ? (
          <EnvironmentForm
            environment={environment}
            pending={pending}
            onCancel={() => handleOpenChange(false)}
            submit={(values) => {
              if (!environment) return create.mutateAsync(values);
              const body = changedEnvironmentFields(environment, values);
              // Nothing changed: nothing to send.
              if (Object.keys(body).length === 0) return Promise.resolve(environment);
              return update.mutateAsync({ environmentId: environment.id, body });
            }}
            onDone={(saved) => {
              toast.success(environment ? "Environment renamed" : "Environment added", saved.name);
              onOpenChange(false);
            }}
            submitLabel={environment ? "Save" : "Add environment"}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

interface EnvironmentFormProps {
  environment: Environment | undefined;
  pending: boolean;
  submit: (values: EnvironmentFormValues) => Promise<{ name: string }>;
  onDone: (saved: { name: string }) => void;
  onCancel: () => void;
  submitLabel: string;
}

function EnvironmentForm({ environment, pending, submit, onDone, onCancel, submitLabel }: EnvironmentFormProps) {
  // A new environment's slug follows its name until edited; a rename never touches the slug by itself.
  const [slugEdited, setSlugEdited] = useState(environment !== undefined);
  const form = useForm<EnvironmentFormInput, unknown, EnvironmentFormValues>({
    resolver: zodResolver(EnvironmentFormSchema),
    defaultValues: toEnvironmentFormValues(environment),
  });
  const { errors, isSubmitted, isDirty } = form.formState;
  const confirmDiscard = useUnsavedChanges(isDirty);

  const onSubmit = form.handleSubmit((values) =>
    submit(values).then(onDone, (error: unknown) =>
      showSubmitError(form, error, environmentFormFields, "Could not save the environment"),
    ),
  );

  return (
    <>
      <form id="environment-form" noValidate onSubmit={onSubmit} className="grid gap-5">
        <FormAlert message={errors.root?.server?.message} />
        <Field id="environment-name" label="Name" error={errors.name?.message}>
          <Input
            autoComplete="off"
            placeholder="e.g. QA"
            {...form.register("name", {
              onChange: (event: { target: { value: string } }) => {
                if (!slugEdited)
                  form.setValue("slug", environmentSlugFrom(event.target.value), { shouldValidate: isSubmitted });
              },
            })}
          />
        </Field>
        <Field
          id="environment-slug"
          label="Slug"
          error={errors.slug?.message}
          description="Used by clients and in secret paths: lowercase letters, digits and single hyphens."
        >
          <Input
            autoComplete="off"
            spellCheck={false}
            className="font-mono text-[13px]"
            placeholder="e.g. qa"
            {...form.register("slug", { onChange: () => setSlugEdited(true) })}
          />
        </Field>
      </form>
      <DialogFooter>
        <Button variant="secondary" onClick={() => confirmDiscard(onCancel)} disabled={pending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="environment-form"
          variant="primary"
          disabled={pending}
          aria-busy={pending || undefined}
        >
          {pending ? <Spinner /> : null}
          {submitLabel}
        </Button>
      </DialogFooter>
    </>
  );
}
