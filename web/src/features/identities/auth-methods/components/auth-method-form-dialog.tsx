import { TriangleAlert } from "lucide-react";
import { Fragment, lazy, Suspense, useEffect, useMemo, useRef } from "react";
import { Controller, type UseFormReturn, useForm, useWatch } from "react-hook-form";
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
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useUnsavedChanges } from "@/hooks/use-unsaved-changes";
import { cn } from "@/lib/cn";
import { showSubmitError } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import { type AuthMethodConfig, type AuthMethodDescriptor, fieldsOf } from "../descriptor";
import {
  ACKNOWLEDGED,
  type AuthMethodFormValues,
  acknowledgementOf,
  formResolver,
  toFormValues,
  type Unrestricted,
  unrestrictedFields,
} from "../form";
import { useAuthMethodChange } from "../mutations";
import { AuthMethodField, isNarrow } from "./auth-method-field";

/** "Would this address pass?" is fetched with the form, not with the identity page. */
const AddressCheck = lazy(async () => ({ default: (await import("./address-check")).AddressCheck }));
/** The credential tester brings the JWT reader and the sign-in rules: loaded with the form that has one. */
const CredentialTester = lazy(async () => ({ default: (await import("./credential-tester")).CredentialTester }));

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
  const defaultValues = useMemo(
    () => ({ ...toFormValues(descriptor, config), [ACKNOWLEDGED]: "" }),
    [descriptor, config],
  );
  const resolver = useMemo(
    () => formResolver(descriptor, editing ? { mode: "update", initial: defaultValues } : { mode: "attach" }),
    [descriptor, editing, defaultValues],
  );
  const form = useForm<AuthMethodFormValues>({ resolver, defaultValues });
  const change = useAuthMethodChange(descriptor, identityId, editing ? "update" : "attach");
  const pending = change.isPending;
  const { errors, dirtyFields } = form.formState;
  // Ticking the acknowledgement alone changes nothing to save.
  const changed = Object.keys(dirtyFields).some((name) => name !== ACKNOWLEDGED);
  useUnsavedChanges(changed);
  const values = useWatch({ control: form.control }) as AuthMethodFormValues;
  const open = unrestrictedFields(descriptor, values);
  // Problems the contract found on fields this form does not show (none expected; never hidden).
  const elsewhere = Object.entries(errors)
    .filter(([name]) => name !== "root" && name !== ACKNOWLEDGED && !names.includes(name))
    .map(([, error]) => error?.message)
    .filter(Boolean)
    .join("; ");
  const idPrefix = `auth-${descriptor.name}`;
  const ipLists = fields.filter((field) => field.kind === "trusted-ips");
  // The tester follows the last section whose settings its rules read, beside what it tests.
  const testerAfter = descriptor.sections.findLastIndex((section) =>
    section.fields.some((field) => descriptor.tester?.settings.includes(field.name)),
  );

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
        <FormAlert message={errors.root?.server?.message ?? (elsewhere || undefined)} />
        {descriptor.sections.map((section, index) => (
          <Fragment key={section.title}>
            <fieldset className="grid gap-4 sm:grid-cols-2">
              <legend className="mb-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                {section.title}
              </legend>
              {section.fields.map((field) => (
                <div key={field.name} className={cn("min-w-0", !isNarrow(field) && "sm:col-span-2")}>
                  <AuthMethodField
                    form={form}
                    descriptor={descriptor}
                    field={field}
                    idPrefix={idPrefix}
                    editing={editing}
                    secretSet={config?.secretsSet.includes(field.name) ?? false}
                  />
                  <UnrestrictedNote entry={open.find((entry) => entry.field === field)} />
                </div>
              ))}
            </fieldset>
            {descriptor.tester && index === testerAfter ? (
              <Suspense fallback={<Skeleton className="h-32 w-full" />}>
                <CredentialTester
                  form={form}
                  descriptor={descriptor}
                  tester={descriptor.tester}
                  identityId={identityId}
                />
              </Suspense>
            ) : null}
          </Fragment>
        ))}
        {ipLists.length > 0 ? (
          <Suspense fallback={<Skeleton className="h-28 w-full" />}>
            <AddressCheck form={form} fields={ipLists} />
          </Suspense>
        ) : null}
        {open.length > 0 ? (
          <Acknowledgement form={form} open={open} label={descriptor.label} idPrefix={idPrefix} />
        ) : null}
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
          disabled={pending || (editing && !changed)}
          aria-busy={pending || undefined}
        >
          {pending ? <Spinner /> : null}
          {editing ? "Save changes" : `Attach ${descriptor.label}`}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** Under a field that restricts nothing: whom it admits as it stands. */
function UnrestrictedNote({ entry }: { entry: Unrestricted | undefined }) {
  if (!entry) return null;
  return (
    <p className="mt-1.5 flex items-start gap-1.5 text-[13px] text-warning-subtle-foreground">
      <TriangleAlert aria-hidden className="mt-0.5 size-3.5 shrink-0" />
      Admits {entry.admits}
    </p>
  );
}

interface AcknowledgementProps {
  form: UseFormReturn<AuthMethodFormValues>;
  open: readonly Unrestricted[];
  label: string;
  idPrefix: string;
}

/** Lists what the method admits while fields restrict nothing; saving waits for the box to be ticked. */
function Acknowledgement({ form, open, label, idPrefix }: AcknowledgementProps) {
  const id = `${idPrefix}-${ACKNOWLEDGED}`;
  const error = form.formState.errors[ACKNOWLEDGED]?.message;
  const key = acknowledgementOf(open);
  const ref = useRef<HTMLDivElement>(null);
  // A refused save focuses the box; the whole notice, its reason included, is brought into view.
  useEffect(() => {
    if (error) ref.current?.scrollIntoView?.({ block: "nearest" });
  }, [error]);
  return (
    <div
      ref={ref}
      role="group"
      aria-labelledby={`${id}-title`}
      className="grid gap-2 rounded-md border border-warning-border bg-warning-subtle px-3 py-3 text-[13px] text-warning-subtle-foreground"
    >
      <p id={`${id}-title`} className="flex items-start gap-2 font-medium">
        <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
        Saved like this, {label} admits:
      </p>
      <ul className="grid gap-0.5 pl-6">
        {open.map((entry) => (
          <li key={entry.field.name}>
            {entry.admits} <span className="opacity-80">({entry.field.label})</span>
          </li>
        ))}
      </ul>
      <Controller
        control={form.control}
        name={ACKNOWLEDGED}
        render={({ field }) => (
          <label htmlFor={id} className="flex cursor-pointer items-start gap-2 pl-6 text-foreground">
            <input
              id={id}
              ref={field.ref}
              type="checkbox"
              checked={field.value === key}
              onChange={(event) => field.onChange(event.target.checked ? key : "")}
              onBlur={field.onBlur}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              className="mt-0.5 size-3.5 shrink-0 accent-accent"
            />
            I understand this admits all of the above
          </label>
        )}
      />
      {error ? (
        <p id={`${id}-error`} className="pl-6 text-destructive-subtle-foreground">
          {error}
        </p>
      ) : null}
    </div>
  );
}
