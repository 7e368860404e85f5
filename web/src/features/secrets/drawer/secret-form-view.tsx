import { zodResolver } from "@hookform/resolvers/zod";
import type { SecretDetail } from "@keyhold/contract";
import { useCallback, useEffect, useState } from "react";
import { Controller, FormProvider, useController, useForm } from "react-hook-form";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormAlert } from "@/components/ui/form-alert";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { useProjectAbility } from "@/hooks/use-project-ability";
import { REMASK_AFTER_MS, useRemask } from "@/hooks/use-remask";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { isApiError } from "@/lib/api-error";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import type { SecretFolder } from "../api";
import { MetadataRows } from "./metadata-rows";
import { useUpdateSecret } from "./mutations";
import {
  placeServerError,
  SecretFormSchema,
  type SecretFormInput,
  type SecretFormValues,
  toFormValues,
  toSecretChanges,
} from "./secret-form";
import { TagPicker } from "./tag-picker";
import { ValueEditor } from "./value-editor";

interface SecretFormProps {
  folder: SecretFolder;
  secret: SecretDetail;
  onDirtyChange: (dirty: boolean) => void;
  onRenamed: (newKey: string) => void;
}

/** The secret's name, value, comment, tags, metadata and reminder; a save sends only what changed. */
export function SecretForm({ folder, secret, onDirtyChange, onRenamed }: SecretFormProps) {
  const form = useForm<SecretFormInput, unknown, SecretFormValues>({
    resolver: zodResolver(SecretFormSchema),
    defaultValues: toFormValues(secret),
    mode: "onTouched",
  });
  const update = useUpdateSecret(folder);
  const ability = useProjectAbility(folder.projectId);
  const [revealed, setRevealed] = useState(false);
  // A revealed value masks again when the tab is hidden or the window loses focus, and after 60 s.
  const mask = useCallback(() => setRevealed(false), []);
  useRemask(revealed, mask);
  useEffect(() => {
    if (!revealed) return;
    const timer = setTimeout(mask, REMASK_AFTER_MS);
    return () => clearTimeout(timer);
  }, [revealed, mask]);
  const { errors, isDirty } = form.formState;
  const { field: valueField } = useController({ control: form.control, name: "secretValue" });
  const value = valueField.value;
  const deniedReason = ability.reason("edit", "secrets");
  useUnsavedChanges(isDirty);

  useEffect(() => {
    onDirtyChange(isDirty);
  }, [isDirty, onDirtyChange]);
  // Leaving (a rename, another secret, closing) leaves nothing unsaved behind.
  useEffect(() => () => onDirtyChange(false), [onDirtyChange]);

  const onSubmit = form.handleSubmit(async (values) => {
    const changes = toSecretChanges(values, secret);
    if (!changes) {
      form.reset(toFormValues(secret));
      return;
    }
    try {
      await update.mutateAsync({ secretKey: secret.secretKey, secretId: secret.id, changes });
      toast.success("Secret saved", changes.newSecretName ?? secret.secretKey);
      if (changes.newSecretName !== undefined) onRenamed(changes.newSecretName);
    } catch (error) {
      if (isApiError(error, 401)) return;
      if (!isApiError(error)) {
        form.setError("root.server", { message: errorSummary(error, "Could not save the secret") });
        return;
      }
      const placement = placeServerError(error, changes);
      for (const { field, message } of placement.fields) form.setError(field, { type: "server", message });
      if (placement.rest.length > 0) {
        form.setError("root.server", {
          message: error.isValidation
            ? `Some values were not accepted: ${placement.rest.join("; ")}`
            : errorSummary(error, "Could not save the secret"),
        });
      }
    }
  });

  return (
    <FormProvider {...form}>
      <form noValidate onSubmit={onSubmit} className="flex min-h-full flex-col" aria-label={`Edit ${secret.secretKey}`}>
        {/* Rows keep their own height in a tall drawer (a stretched grid spreads labels away from their fields). */}
        <div className="grid flex-1 content-start gap-6 px-6 py-5">
          <FormAlert message={errors.root?.server?.message} />
          <Field id="secret-key" label="Name" error={errors.secretKey?.message}>
            <Input {...form.register("secretKey")} className="font-mono" autoComplete="off" spellCheck={false} />
          </Field>

          <div className="grid gap-3">
            <ValueEditor
              id="secret-value"
              folder={folder}
              secretKey={secret.secretKey}
              field={valueField}
              lineCount={value.split("\n").length}
              revealed={revealed}
              onRevealedChange={setRevealed}
              hiddenByPermission={secret.secretValueHidden}
              error={errors.secretValue?.message}
            />
            <Controller
              control={form.control}
              name="skipMultilineEncoding"
              render={({ field }) => (
                <div className="flex items-start gap-3">
                  <Switch
                    id="secret-skip-multiline"
                    checked={field.value}
                    onCheckedChange={field.onChange}
                    onBlur={field.onBlur}
                    aria-describedby="secret-skip-multiline-hint"
                    className="mt-0.5"
                  />
                  <div className="grid gap-1">
                    <label htmlFor="secret-skip-multiline" className="text-[13px] font-medium leading-5">
                      Skip multiline encoding
                    </label>
                    <p id="secret-skip-multiline-hint" className="text-[13px] text-muted-foreground">
                      Hand the value to applications with its line breaks as they are, instead of encoded as \n.
                    </p>
                  </div>
                </div>
              )}
            />
          </div>

          <Field id="secret-comment" label="Comment" error={errors.secretComment?.message}>
            <Textarea {...form.register("secretComment")} rows={2} placeholder="What this secret is for (optional)" />
          </Field>

          <Controller
            control={form.control}
            name="tagIds"
            render={({ field }) => (
              <div className="grid gap-1">
                <TagPicker
                  projectId={folder.projectId}
                  value={field.value}
                  onChange={field.onChange}
                  savedTags={secret.tags ?? []}
                />
                {errors.tagIds?.message ? (
                  <p className="text-[13px] text-destructive-subtle-foreground">{errors.tagIds.message}</p>
                ) : null}
              </div>
            )}
          />

          <MetadataRows />

          <fieldset className="grid gap-3">
            <legend className="mb-2 text-[13px] font-medium">Reminder</legend>
            <div className="grid items-start gap-3 sm:grid-cols-[minmax(0,1fr)_10rem]">
              <Field id="secret-reminder-note" label="Note" error={errors.reminderNote?.message}>
                <Input {...form.register("reminderNote")} autoComplete="off" />
              </Field>
              <Field id="secret-reminder-days" label="Repeat every (days)" error={errors.reminderRepeatDays?.message}>
                <Input {...form.register("reminderRepeatDays")} inputMode="numeric" autoComplete="off" />
              </Field>
            </div>
            <p className="text-[13px] text-muted-foreground">
              For example, 30 days and “Rotate the database password”. Leave the days empty for no reminder.
            </p>
          </fieldset>
        </div>

        <footer className="sticky bottom-0 grid gap-3 border-t border-border bg-card px-6 py-4">
          <div className="flex items-center justify-between gap-3">
            <p className="text-[13px] text-muted-foreground" aria-live="polite">
              {isDirty ? "Unsaved changes" : `Version ${secret.version}`}
            </p>
            <div className="flex gap-2">
              <Button
                variant="secondary"
                size="sm"
                disabled={!isDirty || update.isPending}
                onClick={() => {
                  form.reset(toFormValues(secret));
                  update.reset();
                }}
              >
                Discard changes
              </Button>
              <PermittedButton
                type="submit"
                variant="primary"
                size="sm"
                deniedReason={deniedReason}
                disabled={!isDirty || update.isPending}
                aria-busy={update.isPending || undefined}
              >
                {update.isPending ? <Spinner /> : null}
                Save changes
              </PermittedButton>
            </div>
          </div>
        </footer>
      </form>
    </FormProvider>
  );
}
