import { Controller, type UseFormReturn, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { cn } from "@/lib/cn";
import { type AuthMethodDescriptor, type FieldSpec, fieldHelp, fieldsOf } from "../descriptor";
import { type AuthMethodFormValues, contractLimits, rangeProblem, type SecretValue, ttlAboveMax } from "../form";
import { describeTtl, parseTtl, TTL_FORMAT_HINT, ttlHint } from "../ttl";
import { errorAt } from "./field-error";
import { TrustedIpsEditor } from "./trusted-ips-editor";

interface FieldProps {
  form: UseFormReturn<AuthMethodFormValues>;
  descriptor: AuthMethodDescriptor;
  field: FieldSpec;
  idPrefix: string;
  /** Whether the server holds a value for a write-only field. */
  secretSet?: boolean;
  editing: boolean;
}

/** Half-width kinds sit two to a row. */
export const isNarrow = (field: FieldSpec) => field.kind === "ttl" || field.kind === "number";

/** One field of any method, drawn by its kind. */
export function AuthMethodField(props: FieldProps) {
  const { form, field, idPrefix } = props;
  const id = `${idPrefix}-${field.name}`;
  const error = errorAt(form.formState.errors, field.name);
  switch (field.kind) {
    case "trusted-ips":
      return <TrustedIpsEditor form={form} field={field} idPrefix={idPrefix} description={fieldHelp(field)} />;
    case "secret":
      return <SecretField {...props} />;
    case "ttl":
      return <TtlField {...props} />;
    case "switch":
      return (
        <div className="flex items-center justify-between gap-4">
          <label htmlFor={id} className="text-[13px] font-medium">
            {field.label}
          </label>
          <Controller
            control={form.control}
            name={field.name}
            render={({ field: control }) => (
              <Switch id={id} checked={control.value === true} onCheckedChange={control.onChange} />
            )}
          />
        </div>
      );
    default: {
      const Control = field.kind === "textarea" || field.kind === "pairs" ? Textarea : Input;
      return (
        <Field id={id} label={field.label} description={fieldHelp(field)} error={error}>
          <Control
            className={cn(field.kind !== "text" && "font-mono text-[13px]")}
            inputMode={field.kind === "number" ? "numeric" : undefined}
            autoComplete="off"
            spellCheck={false}
            {...form.register(field.name)}
          />
        </Field>
      );
    }
  }
}

/**
 * A duration with what it comes to ("12 hours: a token issued now expires …"), shown only for a
 * value the server would take: out of range or above its max, the problem is said instead.
 */
function TtlField({ form, descriptor, field, idPrefix, editing }: FieldProps) {
  const values = useWatch({ control: form.control }) as AuthMethodFormValues;
  const value = String(values[field.name] ?? "");
  const parsed = parseTtl(value);
  const problem = parsed.ok
    ? (rangeProblem(field, contractLimits(descriptor)[field.name], parsed.seconds) ??
      ttlAboveMax(descriptor, field, values, editing ? "update" : "attach"))
    : undefined;
  const hint = field.expiry
    ? ttlHint(value)
    : { ok: parsed.ok, text: parsed.ok ? describeTtl(parsed.seconds) : parsed.message };
  const error = errorAt(form.formState.errors, field.name);
  // A field another one may not exceed re-checks that one when it changes.
  const dependents = fieldsOf(descriptor)
    .filter((other) => other.atMost === field.name)
    .map((other) => other.name);
  return (
    <Field
      id={`${idPrefix}-${field.name}`}
      label={field.label}
      error={error ?? problem}
      description={
        <>
          {hint.ok && !problem ? <span className="block text-foreground/80">{hint.text}</span> : null}
          {fieldHelp(field)}
          {/* How to write one, said while the field is empty rather than shown as a sample inside it. */}
          {value.trim() === "" ? ` ${TTL_FORMAT_HINT}.` : null}
        </>
      }
    >
      <Input
        className="font-mono text-[13px]"
        autoComplete="off"
        spellCheck={false}
        {...form.register(field.name, dependents.length > 0 ? { deps: dependents } : undefined)}
      />
    </Field>
  );
}

function SecretField({ form, field, idPrefix, secretSet = false, editing }: FieldProps) {
  const secret = useWatch({ control: form.control, name: field.name }) as SecretValue;
  const clearPath = `${field.name}.clear`;
  const setClear = (clear: boolean) => form.setValue(clearPath, clear, { shouldDirty: true }) as unknown as void;
  const status = !editing
    ? "Stored encrypted and never shown again."
    : secret.clear
      ? "The stored value will be removed when you save."
      : secretSet
        ? "A value is set. It is never shown; leave this empty to keep it, or type a new one to replace it."
        : "No value is set.";
  const id = `${idPrefix}-${field.name}`;
  const error = errorAt(form.formState.errors, field.name);
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{field.label}</Label>
      <div className="flex items-center gap-2">
        <Input
          id={id}
          type="password"
          className="font-mono text-[13px]"
          placeholder={secretSet && !secret.clear ? "•••••••• (unchanged)" : undefined}
          disabled={secret.clear}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-description`}
          autoComplete="new-password"
          spellCheck={false}
          {...form.register(`${field.name}.value`)}
        />
        {editing && secretSet ? (
          <Button variant="secondary" size="sm" onClick={() => setClear(!secret.clear)}>
            {secret.clear ? "Keep" : "Clear"}
          </Button>
        ) : null}
      </div>
      {error ? <p className="text-[13px] text-destructive-subtle-foreground">{error}</p> : null}
      <p id={`${id}-description`} className="text-[13px] text-muted-foreground">
        <span className="block text-foreground/80">{status}</span>
        {fieldHelp(field)}
      </p>
    </div>
  );
}
