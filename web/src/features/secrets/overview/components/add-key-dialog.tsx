import { zodResolver } from "@hookform/resolvers/zod";
import type { Environment } from "@keyhold/contract";
import { useForm, useWatch } from "react-hook-form";
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
import { Textarea } from "@/components/ui/textarea";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import { type AddKeyFormValues, AddKeyFormSchema, failureSummary, namesOf } from "../across-forms";
import { useWriteAcross } from "../mutations";
import type { OverviewRow } from "../overview-rows";
import { EnvironmentChoices } from "./environment-choices";

interface AddKeyDialogProps {
  projectId: string;
  secretPath: string;
  environments: readonly Environment[];
  /** The overview's rows: where a typed key already exists. */
  rows: readonly OverviewRow[];
  initial: { secretKey: string; environments: string[] };
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Adds one key with one value to several environments at once: one batch request per environment. */
export function AddKeyDialog({ open, onOpenChange, ...props }: AddKeyDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        {open ? <AddKeyForm {...props} onClose={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function AddKeyForm({
  projectId,
  secretPath,
  environments,
  rows,
  initial,
  onClose,
}: Omit<AddKeyDialogProps, "open" | "onOpenChange"> & { onClose: () => void }) {
  const write = useWriteAcross(projectId, secretPath);
  const form = useForm<AddKeyFormValues>({
    resolver: zodResolver(AddKeyFormSchema),
    defaultValues: { secretKey: initial.secretKey, secretValue: "", environments: initial.environments },
    mode: "onTouched",
  });
  const { errors, isDirty } = form.formState;
  const confirmDiscard = useUnsavedChanges(isDirty);
  const typedKey = useWatch({ control: form.control, name: "secretKey" }).trim();
  const existing = rows.find((row) => row.secretKey === typedKey);
  const holds = (slug: string) => {
    const env = environments.findIndex((candidate) => candidate.slug === slug);
    return existing?.cells[env]?.kind === "present";
  };

  const onSubmit = form.handleSubmit(async (values) => {
    const targets = values.environments.filter((slug) => !holds(slug));
    if (targets.length === 0) {
      form.setError("environments", { message: `${values.secretKey} already exists in every environment picked.` });
      return;
    }
    const items = [{ secretKey: values.secretKey, secretValue: values.secretValue }];
    try {
      const outcome = await write.mutateAsync(targets.map((environment) => ({ environment, mode: "create", items })));
      const failed = failureSummary(outcome, environments, (error) => errorSummary(error, "not written"));
      if (outcome.written.length > 0) {
        toast.success(`Added ${values.secretKey}`, `In ${namesOf(outcome.written, environments)}.`);
      }
      if (failed) {
        // What was written stays written; what failed stays picked, to try again.
        form.setValue(
          "environments",
          outcome.failed.map(({ environment }) => environment),
        );
        form.setError("root.server", { message: `Not added in ${failed}` });
        return;
      }
      onClose();
    } catch (error) {
      form.setError("root.server", { message: errorSummary(error, "Could not add the key") });
    }
  });

  return (
    <>
      <DialogHeader>
        <DialogTitle>Add key</DialogTitle>
        <DialogDescription>
          To <span className="font-mono text-foreground">{secretPath}</span> in the environments you pick, with the same
          value.
        </DialogDescription>
      </DialogHeader>
      <form id="add-key-form" noValidate onSubmit={onSubmit} className="grid gap-5">
        <FormAlert message={errors.root?.server?.message} />
        <Field id="add-key-name" label="Key" description="For example: DATABASE_URL" error={errors.secretKey?.message}>
          <Input
            {...form.register("secretKey")}
            className="font-mono"
            autoComplete="off"
            spellCheck={false}
            autoFocus={initial.secretKey === ""}
          />
        </Field>
        <Field id="add-key-value" label="Value" error={errors.secretValue?.message}>
          <Textarea
            {...form.register("secretValue")}
            rows={3}
            className="font-mono text-[13px]"
            autoComplete="off"
            spellCheck={false}
            autoFocus={initial.secretKey !== ""}
          />
        </Field>
        <EnvironmentChoices
          legend="Environments"
          environments={environments}
          register={form.register("environments")}
          unavailable={(slug) => (holds(slug) ? "Already has this key" : undefined)}
          error={errors.environments?.message}
        />
      </form>
      <DialogFooter>
        <Button variant="secondary" onClick={() => confirmDiscard(onClose)} disabled={write.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="add-key-form"
          variant="primary"
          disabled={write.isPending}
          aria-busy={write.isPending || undefined}
        >
          {write.isPending ? <Spinner /> : null}
          Add key
        </Button>
      </DialogFooter>
    </>
  );
}
