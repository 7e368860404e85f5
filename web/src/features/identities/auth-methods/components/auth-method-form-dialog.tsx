import { zodResolver } from "@hookform/resolvers/zod";
import { useMemo } from "react";
import { type Resolver, useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { Spinner } from "@/components/ui/spinner";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { cn } from "@/lib/cn";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import { type AuthMethodConfig, type AuthMethodDescriptor, fieldsOf } from "../descriptor";
import { type AuthMethodFormValues, formSchema, toFormValues } from "../form";
import { useAuthMethodChange } from "../mutations";
import { AuthMethodField, isNarrow } from "./auth-method-field";

interface AuthMethodFormDialogProps {
  descriptor: AuthMethodDescriptor;
  identityId: string;
  /** The current configuration when editing; absent when attaching. */
  config?: AuthMethodConfig | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The one form shell: attach or edit any method, from its descriptor. */
export function AuthMethodFormDialog({ descriptor, open, onOpenChange, ...rest }: AuthMethodFormDialogProps) {
  const editing = rest.config !== undefined;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-2xl grid-rows-[auto_minmax(0,1fr)] gap-0 p-0">
        <DialogHeader className="border-b border-border px-6 pt-6 pb-4">
          <DialogTitle>
            {editing ? "Edit" : "Attach"} {descriptor.label}
          </DialogTitle>
          <DialogDescription>{descriptor.description}</DialogDescription>
        </DialogHeader>
        {open ? <AuthMethodForm descriptor={descriptor} onDone={() => onOpenChange(false)} {...rest} /> : null}
      </DialogContent>
    </Dialog>
  );
}

interface AuthMethodFormProps {
  descriptor: AuthMethodDescriptor;
  identityId: string;
  config?: AuthMethodConfig | undefined;
  onDone: () => void;
}

function AuthMethodForm({ descriptor, identityId, config, onDone }: AuthMethodFormProps) {
  const editing = config !== undefined;
  const fields = fieldsOf(descriptor);
  const names = fields.map((field) => field.name);
  const defaultValues = useMemo(() => toFormValues(descriptor, config), [descriptor, config]);
  const schema = useMemo(
    () => formSchema(descriptor, editing ? { mode: "update", initial: defaultValues } : { mode: "attach" }),
    [descriptor, editing, defaultValues],
  );
  const form = useForm<AuthMethodFormValues>({
    resolver: zodResolver(schema as never) as unknown as Resolver<AuthMethodFormValues>,
    defaultValues,
  });
  const change = useAuthMethodChange(descriptor, identityId, editing ? "update" : "attach");
  const pending = change.isPending;
  const { errors, isDirty } = form.formState;
  useUnsavedChanges(isDirty);
  // Problems the contract found on fields this form does not show (none expected; never hidden).
  const elsewhere = Object.entries(errors)
    .filter(([name]) => name !== "root" && !names.includes(name))
    .map(([, error]) => error?.message)
    .filter(Boolean)
    .join("; ");
  const idPrefix = `auth-${descriptor.name}`;

  const onSubmit = form.handleSubmit((body) =>
    change.mutateAsync(body as unknown as Record<string, unknown>).then(
      () => {
        toast.success(editing ? "Changes saved" : `${descriptor.label} attached`);
        onDone();
      },
      (error: unknown) =>
        showSubmitError(
          form,
          error,
          names,
          editing ? "Could not save the changes" : `Could not attach ${descriptor.label}`,
        ),
    ),
  );

  return (
    <form noValidate onSubmit={onSubmit} className="grid min-h-0 grid-rows-[minmax(0,1fr)_auto]">
      <div className="grid gap-6 overflow-y-auto px-6 py-5">
        {descriptor.sections.map((section) => (
          <fieldset key={section.title} className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
              {section.title}
            </legend>
            {section.fields.map((field) => (
              <div key={field.name} className={cn("min-w-0", !isNarrow(field) && "sm:col-span-2")}>
                <AuthMethodField
                  form={form}
                  field={field}
                  idPrefix={idPrefix}
                  editing={editing}
                  secretSet={config?.secretsSet.includes(field.name) ?? false}
                />
              </div>
            ))}
          </fieldset>
        ))}
        <FormAlert message={errors.root?.server?.message ?? (elsewhere || undefined)} />
      </div>
      <DialogFooter className="rounded-b-xl border-t border-border bg-surface px-6 py-3">
        <DialogClose asChild>
          <Button variant="secondary" size="sm" disabled={pending}>
            Cancel
          </Button>
        </DialogClose>
        <Button
          type="submit"
          variant="primary"
          size="sm"
          disabled={pending || (editing && !isDirty)}
          aria-busy={pending || undefined}
        >
          {pending ? <Spinner /> : null}
          {editing ? "Save changes" : `Attach ${descriptor.label}`}
        </Button>
      </DialogFooter>
    </form>
  );
}
