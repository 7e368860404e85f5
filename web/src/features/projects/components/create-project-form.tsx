import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { paths } from "@/config/paths";
import { useServerFeature } from "@/hooks/use-server-feature";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import type { useCreateProject } from "../mutations";
import {
  type CreateProjectFormInput,
  CreateProjectFormSchema,
  type CreateProjectFormValues,
  createProjectFormFields,
  projectSlugFrom,
  randomSlugSuffix,
  toCreateBody,
  toCreateFormValues,
} from "../project-form";
import { SwitchRow } from "./switch-row";

interface CreateProjectFormProps {
  /** Owned by the dialog, which must not close while the request is in flight. */
  createProject: ReturnType<typeof useCreateProject>;
  onCancel: () => void;
  onCreated: () => void;
}

export const DEFAULT_ENVIRONMENTS_TEXT = "Development (dev), Staging (staging) and Production (prod).";

/** The body of the create-project dialog; it mounts fresh, with default values, each time the dialog opens. */
export function CreateProjectForm({ createProject, onCancel, onCreated }: CreateProjectFormProps) {
  const deleteProtection = useServerFeature("deleteProtection");
  const descriptions = useServerFeature("projectDescription");
  const navigate = useNavigate();
  const [suffix] = useState(() => randomSlugSuffix());
  // The slug follows the name until it is edited by hand.
  const [slugEdited, setSlugEdited] = useState(false);
  const form = useForm<CreateProjectFormInput, unknown, CreateProjectFormValues>({
    resolver: zodResolver(CreateProjectFormSchema),
    defaultValues: toCreateFormValues(suffix),
  });
  const { register, control, formState, setValue } = form;
  const { errors } = formState;
  const confirmDiscard = useUnsavedChanges(formState.isDirty);

  useEffect(() => form.setFocus("projectName"), [form]);

  const nameField = register("projectName", {
    onChange: (event: { target: { value: string } }) => {
      if (!slugEdited)
        setValue("slug", projectSlugFrom(event.target.value, suffix), { shouldValidate: formState.isSubmitted });
    },
  });
  const slugField = register("slug", { onChange: () => setSlugEdited(true) });

  function resetSlug() {
    setSlugEdited(false);
    setValue("slug", projectSlugFrom(form.getValues("projectName"), suffix), { shouldValidate: true });
  }

  const onSubmit = form.handleSubmit((values) =>
    createProject.mutateAsync(toCreateBody(values, { descriptions: descriptions.available })).then(
      (project) => {
        toast.success("Project created", project.name);
        onCreated();
        navigate(paths.projectHome.href(project.id));
      },
      (error: unknown) => showSubmitError(form, error, createProjectFormFields, "Could not create the project"),
    ),
  );

  return (
    <>
      <form id="create-project-form" noValidate onSubmit={onSubmit} className="grid gap-5">
        <FormAlert message={errors.root?.server?.message} />
        <Field id="create-project-name" label="Name" error={errors.projectName?.message}>
          <Input autoComplete="off" placeholder="e.g. Payments API" {...nameField} />
        </Field>
        <Field
          id="create-project-slug"
          label="Slug"
          error={errors.slug?.message}
          description={
            slugEdited ? (
              <>
                Lowercase letters, digits and single hyphens, 5 to 36 characters.{" "}
                <button
                  type="button"
                  onClick={resetSlug}
                  className="rounded-sm font-medium text-accent-text outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
                >
                  Derive from the name
                </button>
              </>
            ) : (
              "Derived from the name, with a random ending so it stays unique. Edit it to choose your own."
            )
          }
        >
          <Input autoComplete="off" spellCheck={false} className="font-mono text-[13px]" {...slugField} />
        </Field>
        <Field
          id="create-project-description"
          label={
            <>
              Description <span className="font-normal text-muted-foreground">(optional)</span>
            </>
          }
          error={errors.projectDescription?.message}
          description={descriptions.available ? undefined : `Not available: ${descriptions.reason ?? ""}`}
        >
          <Textarea
            rows={2}
            placeholder="What this project is for"
            disabled={!descriptions.available}
            {...register("projectDescription")}
          />
        </Field>
        <Controller
          control={control}
          name="shouldCreateDefaultEnvs"
          render={({ field }) => (
            <SwitchRow
              id="create-project-default-envs"
              label="Default environments"
              description={`Start with ${DEFAULT_ENVIRONMENTS_TEXT}`}
              ref={field.ref}
              checked={field.value}
              onCheckedChange={field.onChange}
              onBlur={field.onBlur}
            />
          )}
        />
        <Controller
          control={control}
          name="hasDeleteProtection"
          render={({ field }) => (
            <SwitchRow
              id="create-project-delete-protection"
              label="Delete protection"
              description={
                deleteProtection.available
                  ? "While on, this project cannot be deleted."
                  : `Not available: ${deleteProtection.reason ?? "this server does not support it."}`
              }
              disabled={!deleteProtection.available}
              ref={field.ref}
              checked={field.value && deleteProtection.available}
              onCheckedChange={field.onChange}
              onBlur={field.onBlur}
            />
          )}
        />
      </form>
      <DialogFooter>
        <Button variant="secondary" onClick={() => confirmDiscard(onCancel)} disabled={createProject.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="create-project-form"
          variant="primary"
          disabled={createProject.isPending}
          aria-busy={createProject.isPending || undefined}
        >
          {createProject.isPending ? <Spinner /> : null}
          Create project
        </Button>
      </DialogFooter>
    </>
  );
}
