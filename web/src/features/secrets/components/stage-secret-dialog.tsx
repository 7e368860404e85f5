import { zodResolver } from "@hookform/resolvers/zod";
import { SecretNameSchema } from "@keyhold/contract";
import { useMemo } from "react";
import { useController, useForm } from "react-hook-form";
import { z } from "zod";
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
import { Input } from "@/components/ui/input";
import { textareaClasses } from "@/components/ui/textarea";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { cn } from "@/lib/cn";
import type { SecretFolder } from "../api";
import { pendingChange, stageCreate } from "../staging/staged-changes";
import { ReferenceFlags, useReferenceIssues } from "./reference-flags";
import { ReferenceInput } from "./reference-input";
import { useStaging } from "./staging-context";

interface StageSecretDialogProps {
  folder: SecretFolder;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The folder's keys now, which a new row may not take (unless staged for deletion). */
  existingKeys: ReadonlySet<string>;
}

/** Adds a row to the pending changes: a new secret created with the others on save. */
export function StageSecretDialog({ folder, open, onOpenChange, existingKeys }: StageSecretDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        {open ? (
          <StageSecretForm folder={folder} existingKeys={existingKeys} onClose={() => onOpenChange(false)} />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function StageSecretForm({
  folder,
  existingKeys,
  onClose,
}: {
  folder: SecretFolder;
  existingKeys: ReadonlySet<string>;
  onClose: () => void;
}) {
  const { staged, change } = useStaging();
  const schema = useMemo(
    () =>
      z.object({
        secretKey: SecretNameSchema.refine(
          (key) =>
            (!existingKeys.has(key) || pendingChange(staged, folder, key)?.change.kind === "delete") &&
            pendingChange(staged, folder, key)?.change.kind !== "create",
          "This folder already has this key",
        ),
        secretValue: z.string(),
        secretComment: z.string(),
      }),
    [existingKeys, staged, folder],
  );
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { secretKey: "", secretValue: "", secretComment: "" },
    mode: "onTouched",
  });
  const { errors, isDirty } = form.formState;
  const confirmDiscard = useUnsavedChanges(isDirty);
  const { field: valueField } = useController({ control: form.control, name: "secretValue" });
  const value = valueField.value;
  const issues = useReferenceIssues(folder, value.includes("${") ? value : undefined);

  const onSubmit = form.handleSubmit((values) => {
    change((current) => stageCreate(current, folder, values));
    onClose();
  });

  return (
    <>
      <DialogHeader>
        <DialogTitle>Add a row</DialogTitle>
        <DialogDescription>
          A new secret in <span className="font-mono text-foreground">{folder.secretPath}</span> of {folder.environment}
          , created with the other pending changes when you save them.
        </DialogDescription>
      </DialogHeader>
      <form id="stage-secret-form" noValidate onSubmit={onSubmit} className="grid gap-5">
        <Field id="staged-key" label="Key" description="For example: DATABASE_URL" error={errors.secretKey?.message}>
          <Input
            {...form.register("secretKey")}
            className="font-mono"
            autoComplete="off"
            spellCheck={false}
            autoFocus
          />
        </Field>
        <div className="grid gap-2">
          <Field id="staged-value" label="Value" description="Type ${ to insert a reference to another secret.">
            <ReferenceInput
              multiline
              rows={3}
              folder={folder}
              value={valueField.value}
              onValueChange={valueField.onChange}
              onBlur={valueField.onBlur}
              fieldRef={valueField.ref}
              className={cn(textareaClasses, "font-mono text-[13px]")}
            />
          </Field>
          <ReferenceFlags issues={issues} />
        </div>
        <Field id="staged-comment" label="Comment">
          <Input {...form.register("secretComment")} autoComplete="off" placeholder="What it is for (optional)" />
        </Field>
      </form>
      <DialogFooter>
        <Button variant="secondary" onClick={() => confirmDiscard(onClose)}>
          Cancel
        </Button>
        <Button type="submit" form="stage-secret-form" variant="primary">
          Add to changes
        </Button>
      </DialogFooter>
    </>
  );
}
