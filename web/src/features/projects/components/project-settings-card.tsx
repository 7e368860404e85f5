import type { Project } from "@keyhold/contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { Controller, useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { useServerFeature } from "@/hooks/use-server-feature";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import { useUpdateProject } from "../mutations";
import {
  type ProjectSettingsFormInput,
  ProjectSettingsFormSchema,
  type ProjectSettingsFormValues,
  projectSettingsFormFields,
  toSettingsFormValues,
} from "../project-form";
import { Card, DeniedNote } from "./card";
import { DeleteProjectButton } from "./delete-project-button";
import { SwitchRow } from "./switch-row";
import type { ProjectDenials } from "./use-project-denials";

/** Rename, describe and protect the project; delete it. */
export function ProjectSettingsCard({ project, denials }: { project: Project; denials: ProjectDenials }) {
  const deleteProtection = useServerFeature("deleteProtection");
  const descriptions = useServerFeature("projectDescription");
  const update = useUpdateProject(project.id);
  const form = useForm<ProjectSettingsFormInput, unknown, ProjectSettingsFormValues>({
    resolver: zodResolver(ProjectSettingsFormSchema),
    // Follows the project after each save (and after someone else's change is refetched).
    values: toSettingsFormValues(project),
  });
  const { errors, isDirty } = form.formState;
  useUnsavedChanges(isDirty);
  const locked = denials.editSettings !== undefined;

  const onSubmit = form.handleSubmit((values) => {
    // A server is not sent what it does not know: it would drop it, or refuse an update of nothing else.
    const { hasDeleteProtection, description, ...rest } = values;
    const body = {
      ...rest,
      ...(descriptions.available && { description }),
      ...(deleteProtection.available && { hasDeleteProtection }),
    };
    return update.mutateAsync(body).then(
      (saved) => toast.success("Project settings saved", saved.name),
      (error: unknown) => showSubmitError(form, error, projectSettingsFormFields, "Could not save the settings"),
    );
  });

  return (
    <Card id="project-settings" title="Settings">
      <DeniedNote reason={denials.editSettings} />
      <form noValidate onSubmit={onSubmit} className="grid gap-5 p-4" aria-labelledby="project-settings">
        <FormAlert message={errors.root?.server?.message} />
        <fieldset disabled={locked} className="grid gap-5">
          <Field id="project-settings-name" label="Name" error={errors.name?.message}>
            <Input autoComplete="off" {...form.register("name")} />
          </Field>
          <Field
            id="project-settings-description"
            label="Description"
            error={errors.description?.message}
            description={descriptions.available ? undefined : `Not available: ${descriptions.reason ?? ""}`}
          >
            <Textarea
              rows={2}
              placeholder="What this project is for"
              disabled={!descriptions.available}
              {...form.register("description")}
            />
          </Field>
          <Controller
            control={form.control}
            name="hasDeleteProtection"
            render={({ field }) => (
              <SwitchRow
                id="project-settings-delete-protection"
                label="Delete protection"
                description={
                  deleteProtection.available
                    ? "While on, the server refuses to delete this project."
                    : `Not available: ${deleteProtection.reason ?? "this server does not support it."}`
                }
                disabled={locked || !deleteProtection.available}
                ref={field.ref}
                checked={field.value && deleteProtection.available}
                onCheckedChange={field.onChange}
                onBlur={field.onBlur}
              />
            )}
          />
        </fieldset>
        <div className="flex justify-end gap-2">
          {isDirty ? (
            <Button variant="secondary" size="sm" onClick={() => form.reset()} disabled={update.isPending}>
              Discard
            </Button>
          ) : null}
          <Button
            type="submit"
            variant="primary"
            size="sm"
            disabled={locked || !isDirty || update.isPending}
            aria-busy={update.isPending || undefined}
          >
            {update.isPending ? <Spinner /> : null}
            Save settings
          </Button>
        </div>
      </form>
      <div className="flex items-center justify-between gap-4 border-t border-border px-4 py-3">
        <div className="grid min-w-0 gap-0.5">
          <h3 className="text-sm font-medium">Delete project</h3>
          <p className="text-[13px] text-muted-foreground">
            {denials.deleteProject ??
              (project.hasDeleteProtection
                ? "Delete protection is on: turn it off above before deleting."
                : "Deletes the project with all its environments, secrets, roles and memberships.")}
          </p>
        </div>
        <div className="shrink-0">
          <DeleteProjectButton project={project} deniedReason={denials.deleteProject} />
        </div>
      </div>
    </Card>
  );
}
