import { zodResolver } from "@hookform/resolvers/zod";
import type { Tag } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
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
import { Textarea } from "@/components/ui/textarea";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { errorSummary } from "@/lib/describe-error";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import type { SecretFolder } from "../api";
import { useCreateSecret } from "../mutations";
import { secretQueries } from "../queries";
import {
  emptyNewSecret,
  NewSecretFormSchema,
  type NewSecretFormInput,
  type NewSecretFormValues,
  newSecretFields,
  toNewSecret,
} from "../secret-forms";
import { TagDot } from "./tag-dot";

interface CreateSecretDialogProps {
  folder: SecretFolder;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function CreateSecretDialog({ folder, open, onOpenChange }: CreateSecretDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        {open ? <CreateSecretForm folder={folder} onClose={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function CreateSecretForm({ folder, onClose }: { folder: SecretFolder; onClose: () => void }) {
  const tags = useQuery(secretQueries.tags(folder.projectId));
  const create = useCreateSecret(folder, tags.data ?? []);
  const form = useForm<NewSecretFormInput, unknown, NewSecretFormValues>({
    resolver: zodResolver(NewSecretFormSchema),
    defaultValues: emptyNewSecret(),
    mode: "onTouched",
  });
  const { errors, isDirty } = form.formState;
  const confirmDiscard = useUnsavedChanges(isDirty);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const secret = await create.mutateAsync(toNewSecret(values));
      toast.success("Secret created", secret.secretKey);
      onClose();
    } catch (error) {
      showSubmitError(form, error, newSecretFields, "Could not create the secret");
    }
  });

  return (
    <>
      <DialogHeader>
        <DialogTitle>Create secret</DialogTitle>
        <DialogDescription>
          In <span className="font-mono text-foreground">{folder.secretPath}</span> of {folder.environment}.
        </DialogDescription>
      </DialogHeader>
      <form id="create-secret-form" noValidate onSubmit={onSubmit} className="grid gap-5">
        <FormAlert message={errors.root?.server?.message} />
        <Field id="secret-key" label="Key" description="For example: DATABASE_URL" error={errors.secretKey?.message}>
          <Input
            {...form.register("secretKey")}
            className="font-mono"
            autoComplete="off"
            spellCheck={false}
            autoFocus
          />
        </Field>
        <Field id="secret-value" label="Value" error={errors.secretValue?.message}>
          <Textarea
            {...form.register("secretValue")}
            rows={3}
            className="font-mono text-[13px]"
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <Field id="secret-comment" label="Comment" error={errors.secretComment?.message}>
          <Input {...form.register("secretComment")} autoComplete="off" placeholder="What it is for (optional)" />
        </Field>
        <TagChoices tags={tags} register={form.register("tagIds")} error={errors.tagIds?.message} />
      </form>
      <DialogFooter>
        <Button variant="secondary" onClick={() => confirmDiscard(onClose)} disabled={create.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="create-secret-form"
          variant="primary"
          disabled={create.isPending}
          aria-busy={create.isPending || undefined}
        >
          {create.isPending ? <Spinner /> : null}
          Create secret
        </Button>
      </DialogFooter>
    </>
  );
}

interface TagChoicesProps {
  tags: { data?: Tag[] | undefined; isPending: boolean; error: unknown };
  register: ReturnType<ReturnType<typeof useForm<NewSecretFormInput>>["register"]>;
  error: string | undefined;
}

/** The project's tags as checkboxes; without them (none, or a server that cannot list them) it says so. */
function TagChoices({ tags, register, error }: TagChoicesProps) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium">Tags</legend>
      {tags.isPending ? (
        <p className="inline-flex items-center gap-2 text-[13px] text-muted-foreground">
          <Spinner /> Loading the project's tags…
        </p>
      ) : tags.error ? (
        <p className="text-[13px] text-muted-foreground">
          {errorSummary(tags.error, "The project's tags could not be loaded")} The secret can be tagged later.
        </p>
      ) : tags.data && tags.data.length > 0 ? (
        <div className="flex flex-wrap gap-2">
          {tags.data.map((tag) => (
            <label
              key={tag.id}
              className="inline-flex h-7 cursor-pointer items-center gap-2 rounded-md border border-border bg-card px-2.5 text-[13px] has-checked:border-accent has-checked:bg-accent-subtle has-focus-visible:ring-2 has-focus-visible:ring-ring"
            >
              <input type="checkbox" value={tag.id} {...register} className="size-3.5 accent-accent" />
              <TagDot color={tag.color} />
              {tag.slug}
            </label>
          ))}
        </div>
      ) : (
        <p className="text-[13px] text-muted-foreground">This project has no tags yet.</p>
      )}
      {error ? <p className="text-[13px] text-destructive-subtle-foreground">{error}</p> : null}
    </fieldset>
  );
}
