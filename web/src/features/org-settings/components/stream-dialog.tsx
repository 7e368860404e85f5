import type { AuditLogStream } from "@keyhold/contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { Plus, Trash2 } from "lucide-react";
import { type FieldPath, useFieldArray, useForm, type UseFormReturn } from "react-hook-form";
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
import { ApiError, isApiError } from "@/lib/api-error";
import { errorSummary } from "@/lib/describe-error";
import { issuePath } from "@/lib/form-errors";
import { toast } from "@/lib/toast";
import { useCreateStream, useUpdateStream } from "../mutations";
import {
  formPathOfIssue,
  STREAM_PROVIDER,
  type StreamFormInput,
  StreamFormSchema,
  type StreamFormValues,
  toCreateBody,
  toStreamFormValues,
  toUpdateBody,
} from "../stream-form";

interface StreamDialogProps {
  /** The stream to edit; absent to add one. */
  stream?: AuditLogStream | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Add a stream, or change one's URL and headers. The server pings the URL before it saves. */
export function StreamDialog({ stream, open, onOpenChange }: StreamDialogProps) {
  const create = useCreateStream();
  const update = useUpdateStream();
  const pending = create.isPending || update.isPending;

  function handleOpenChange(next: boolean) {
    if (pending) return;
    onOpenChange(next);
  }

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>{stream ? "Edit stream" : "Add stream"}</DialogTitle>
          <DialogDescription>
            Every audit event of the organization is sent to this URL as JSON, in order, retried until it is accepted.
            Saving first sends it a test request (<code className="font-mono text-xs">{'{"ping":"ok"}'}</code>) with
            these headers.
          </DialogDescription>
        </DialogHeader>
        {/* Mounted per opening, so the form starts from the stream as it is now. */}
        {open ? (
          <StreamForm
            stream={stream}
            pending={pending}
            onCancel={() => handleOpenChange(false)}
            submit={(values) =>
              stream
                ? update.mutateAsync({
                    ref: { provider: stream.provider, streamId: stream.id },
                    body: toUpdateBody(values),
                  })
                : create.mutateAsync({ provider: STREAM_PROVIDER, body: toCreateBody(values) })
            }
            onDone={(saved) => {
              toast.success(stream ? "Stream saved" : "Stream added", saved.credentials.url);
              onOpenChange(false);
            }}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

interface StreamFormProps {
  stream: AuditLogStream | undefined;
  pending: boolean;
  submit: (values: StreamFormValues) => Promise<AuditLogStream>;
  onDone: (saved: AuditLogStream) => void;
  onCancel: () => void;
}

type StreamForm = UseFormReturn<StreamFormInput, unknown, StreamFormValues>;

/**
 * A refusal on the form: the body's `credentials.*` issues on their fields, anything else (the
 * ping's failure: "Failed to connect with upstream source: …") at the top of the form.
 */
function showStreamError(form: StreamForm, error: unknown) {
  if (isApiError(error, 401)) return;
  if (error instanceof ApiError && error.isValidation && error.issues.length > 0) {
    const unplaced: string[] = [];
    let first: string | undefined;
    for (const issue of error.issues) {
      const path = formPathOfIssue(issuePath(issue));
      if (path === "url" || /^headers\.\d+\.(key|value)$/.test(path)) {
        form.setError(path as FieldPath<StreamFormInput>, { type: "server", message: issue.message });
        first ??= path;
      } else {
        unplaced.push(path ? `${path}: ${issue.message}` : issue.message);
      }
    }
    if (first) form.setFocus(first as FieldPath<StreamFormInput>);
    if (unplaced.length > 0) {
      form.setError("root.server", {
        type: "server",
        message: `Some values were not accepted: ${unplaced.join("; ")}`,
      });
    }
    return;
  }
  form.setError("root.server", { type: "server", message: errorSummary(error, "Could not save the stream") });
}

function StreamForm({ stream, pending, submit, onDone, onCancel }: StreamFormProps) {
  const form = useForm<StreamFormInput, unknown, StreamFormValues>({
    resolver: zodResolver(StreamFormSchema),
    defaultValues: toStreamFormValues(stream),
  });
  const { errors, isDirty } = form.formState;
  useUnsavedChanges(isDirty);

  const onSubmit = form.handleSubmit((values) =>
    submit(values).then(onDone, (error: unknown) => showStreamError(form, error)),
  );

  return (
    <>
      <form id="stream-form" noValidate onSubmit={onSubmit} className="grid gap-5">
        <FormAlert message={errors.root?.server?.message} />
        <Field id="stream-url" label="URL" error={errors.url?.message}>
          <Input
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="e.g. https://logs.example.com/keyhold"
            className="font-mono text-[13px]"
            {...form.register("url")}
          />
        </Field>
        <HeaderRows form={form} />
      </form>
      <DialogFooter>
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" form="stream-form" variant="primary" disabled={pending} aria-busy={pending || undefined}>
          {pending ? <Spinner /> : null}
          {pending ? "Checking the URL…" : stream ? "Save stream" : "Add stream"}
        </Button>
      </DialogFooter>
    </>
  );
}

/** Header rows; a stored value is never shown, and a row left blank keeps it. */
function HeaderRows({ form }: { form: StreamForm }) {
  const { control, register, formState, watch } = form;
  const { fields, append, remove } = useFieldArray({ control, name: "headers" });
  const rowErrors = formState.errors.headers;
  const rows = watch("headers");

  return (
    <fieldset className="grid gap-2">
      <legend className="text-[13px] font-medium">Headers</legend>
      <p className="-mt-1 text-[13px] text-muted-foreground">
        Sent with every request, such as an API key the receiver expects. Values are stored encrypted and never shown
        again.
      </p>
      {fields.length > 0 ? (
        <ul className="grid gap-2">
          {fields.map((row, index) => {
            const keyError = rowErrors?.[index]?.key?.message;
            const valueError = rowErrors?.[index]?.value?.message;
            const keyId = `stream-header-${index}-key`;
            const valueId = `stream-header-${index}-value`;
            const current = rows[index];
            const kept = current?.storedKey != null && current.key.trim() === current.storedKey;
            return (
              <li key={row.id} className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] items-start gap-2">
                <div className="grid gap-1">
                  <label htmlFor={keyId} className="sr-only">
                    Header {index + 1} name
                  </label>
                  <Input
                    id={keyId}
                    placeholder="Name"
                    className="font-mono text-[13px]"
                    autoComplete="off"
                    spellCheck={false}
                    aria-invalid={keyError ? true : undefined}
                    aria-describedby={keyError ? `${keyId}-error` : undefined}
                    {...register(`headers.${index}.key`)}
                  />
                  {keyError ? (
                    <p id={`${keyId}-error`} className="text-[13px] text-destructive-subtle-foreground">
                      {keyError}
                    </p>
                  ) : null}
                </div>
                <div className="grid gap-1">
                  <label htmlFor={valueId} className="sr-only">
                    Header {index + 1} value{kept ? " (saved; leave blank to keep)" : ""}
                  </label>
                  <Input
                    id={valueId}
                    type="password"
                    placeholder={kept ? "••••••" : "Value"}
                    className="font-mono text-[13px]"
                    autoComplete="new-password"
                    spellCheck={false}
                    aria-invalid={valueError ? true : undefined}
                    aria-describedby={valueError ? `${valueId}-error` : undefined}
                    {...register(`headers.${index}.value`)}
                  />
                  {valueError ? (
                    <p id={`${valueId}-error`} className="text-[13px] text-destructive-subtle-foreground">
                      {valueError}
                    </p>
                  ) : null}
                </div>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove header ${index + 1}`}
                  onClick={() => remove(index)}
                  className="text-muted-foreground hover:text-foreground"
                >
                  <Trash2 aria-hidden />
                </Button>
              </li>
            );
          })}
        </ul>
      ) : null}
      {rows.some((row) => row.storedKey !== null) ? (
        <p className="text-[13px] text-muted-foreground">
          <span aria-hidden>••••••</span> marks a saved value: leave it blank to keep it, or type a new one.
        </p>
      ) : null}
      <div>
        <Button size="sm" variant="secondary" onClick={() => append({ key: "", value: "", storedKey: null })}>
          <Plus aria-hidden />
          Add header
        </Button>
      </div>
    </fieldset>
  );
}
