import { zodResolver } from "@hookform/resolvers/zod";
import { commaList, ttlWithinMax } from "@keyhold/contract";
import type { FieldError, Resolver } from "react-hook-form";
import { z } from "zod";
import type { AuthMethodConfig, AuthMethodDescriptor, AuthMethodRecord, FieldSpec } from "./descriptor";
import { fieldsOf } from "./descriptor";
import { checkTrustedIps, trustedIpText, trustedIpsAdmit } from "./trusted-ips";
import { describeTtl, formatTtl, parseTtl } from "./ttl";

/*
 * The one form every auth method uses. Its values are what people type (durations as "30d",
 * numbers as text, trusted IPs as rows); its schema turns them into the wire body and then
 * validates that body with the contract's own attach or update schema, so the contract's rules
 * (TTL within the max, URL shapes, ranges) apply unchanged and name the same fields.
 */

export interface TrustedIpRow {
  ipAddress: string;
}
export interface SecretValue {
  /** A new value; empty keeps what the server has. */
  value: string;
  /** Remove the stored value (sends null). */
  clear: boolean;
}
export type FormValue = string | boolean | TrustedIpRow[] | SecretValue;
export type AuthMethodFormValues = Record<string, FormValue>;

export type FormMode = { mode: "attach" } | { mode: "update"; initial: AuthMethodFormValues };

/** The range the contract allows a number or duration, read off its attach schema. */
export interface Limits {
  min?: number;
  max?: number;
}

/** Each field's range as the contract declares it, so the form refuses what the server would. */
export function contractLimits(descriptor: AuthMethodDescriptor): Record<string, Limits> {
  return schemaLimits(descriptor.attachBody);
}

/** The range of each number in a contract body schema (an object), by field name. */
export function schemaLimits(body: unknown): Record<string, Limits> {
  const shape = (body as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const limits: Record<string, Limits> = {};
  for (const [name, wrapped] of Object.entries(shape)) {
    let schema: z.ZodType = wrapped;
    while (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) {
      schema = schema.def.innerType as z.ZodType;
    }
    if (!(schema instanceof z.ZodNumber)) continue;
    // Read off the checks themselves: minValue and maxValue go through zod's JSON Schema code,
    // which the console's build leaves out. The contract's bounds are inclusive whole numbers.
    const range: Limits = {};
    for (const check of schema.def.checks ?? []) {
      const def = check._zod.def as { check: string; value?: unknown };
      if (typeof def.value !== "number") continue;
      if (def.check === "greater_than") range.min = Math.max(range.min ?? def.value, def.value);
      if (def.check === "less_than") range.max = Math.min(range.max ?? def.value, def.value);
    }
    limits[name] = range;
  }
  return limits;
}

/** Why a number or duration is outside its range ("From 1 to 30", "At most 3650 days"), if it is. */
export function rangeProblem(
  field: Pick<FieldSpec, "kind">,
  limits: Limits | undefined,
  value: number,
): string | undefined {
  const { min = 0, max } = limits ?? {};
  if (value >= min && (max === undefined || value <= max)) return undefined;
  const say = (n: number) => (field.kind === "ttl" ? describeTtl(n).toLowerCase() : String(n));
  if (max === undefined) return `At least ${say(min)}`;
  return min > 0 ? `From ${say(min)} to ${say(max)}` : `At most ${say(max)}`;
}

/** The attach body's defaults, as the contract declares them. */
export function contractDefaults(descriptor: AuthMethodDescriptor): AuthMethodRecord {
  const shape = (descriptor.attachBody as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const defaults: AuthMethodRecord = {};
  for (const [name, schema] of Object.entries(shape)) {
    if (schema instanceof z.ZodDefault) defaults[name] = schema.def.defaultValue;
  }
  return defaults;
}

function toFormValue(field: FieldSpec, value: unknown): FormValue {
  switch (field.kind) {
    case "ttl":
      return typeof value === "number" ? formatTtl(value) : "";
    case "number":
      return typeof value === "number" ? String(value) : "";
    case "switch":
      return value === true;
    case "trusted-ips":
      return Array.isArray(value)
        ? value.map((entry: { ipAddress: string; prefix?: number | null }) => ({ ipAddress: trustedIpText(entry) }))
        : [];
    case "secret":
      return { value: "", clear: false };
    case "pairs":
      return value && typeof value === "object"
        ? Object.entries(value as Record<string, unknown>)
            .map(([key, v]) => `${key}=${String(v)}`)
            .join("\n")
        : "";
    default:
      return value === null || value === undefined ? "" : String(value);
  }
}

/** Form values for attaching (the contract's defaults) or editing (the current record): one function for both. */
export function toFormValues(descriptor: AuthMethodDescriptor, config?: AuthMethodConfig): AuthMethodFormValues {
  const source = config?.record ?? contractDefaults(descriptor);
  return Object.fromEntries(fieldsOf(descriptor).map((field) => [field.name, toFormValue(field, source[field.name])]));
}

function requiredText(field: FieldSpec) {
  const text = z.string().transform((s) => s.trim());
  return field.required ? text.refine((s) => s !== "", `${field.label} is required`) : text;
}

/** Reads `key=value` lines; blank lines are skipped. */
export function parsePairs(text: string): { ok: true; value: Record<string, string> } | { ok: false; line: number } {
  const value: Record<string, string> = {};
  const lines = text.split("\n");
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === "") continue;
    const eq = line.indexOf("=");
    if (eq <= 0) return { ok: false, line: index + 1 };
    value[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return { ok: true, value };
}

/** The form-side schema of one field: what people typed → the wire value. */
function fieldSchema(field: FieldSpec, limits: Limits | undefined): z.ZodType<unknown, FormValue> {
  switch (field.kind) {
    case "ttl":
      return z.string().transform((text, ctx) => {
        const parsed = parseTtl(text);
        const problem = parsed.ok ? rangeProblem(field, limits, parsed.seconds) : parsed.message;
        if (parsed.ok && !problem) return parsed.seconds;
        ctx.addIssue({ code: "custom", message: problem ?? "" });
        return z.NEVER;
      }) as z.ZodType<unknown, FormValue>;
    case "number":
      return z.string().transform((text, ctx) => {
        const problem = /^\s*\d+\s*$/.test(text) ? rangeProblem(field, limits, Number(text)) : "Enter a whole number";
        if (!problem) return Number(text);
        ctx.addIssue({ code: "custom", message: problem });
        return z.NEVER;
      }) as z.ZodType<unknown, FormValue>;
    case "switch":
      return z.boolean() as z.ZodType<unknown, FormValue>;
    case "trusted-ips":
      return z
        .array(z.object({ ipAddress: z.string() }))
        .superRefine((rows, ctx) => {
          if (rows.length === 0) ctx.addIssue({ code: "custom", message: "Add at least one address or range" });
          checkTrustedIps(rows.map((row) => row.ipAddress)).rows.forEach((row, index) => {
            if (row.error) ctx.addIssue({ code: "custom", message: row.error, path: [index, "ipAddress"] });
          });
        })
        .transform((rows) =>
          checkTrustedIps(rows.map((row) => row.ipAddress)).rows.map((row) => ({ ipAddress: row.value ?? "" })),
        ) as z.ZodType<unknown, FormValue>;
    case "secret":
      return z
        .object({ value: z.string(), clear: z.boolean() })
        .transform((secret) => (secret.clear ? null : secret.value.trim() || undefined)) as z.ZodType<
        unknown,
        FormValue
      >;
    case "pairs":
      return z.string().transform((text, ctx) => {
        const parsed = parsePairs(text);
        if (parsed.ok) return parsed.value;
        ctx.addIssue({ code: "custom", message: `Line ${parsed.line} is not key=value` });
        return z.NEVER;
      }) as z.ZodType<unknown, FormValue>;
    default:
      return requiredText(field) as z.ZodType<unknown, FormValue>;
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The form's schema. Attach sends every field (an empty secret is left out); update sends only
 * what changed, so an untouched setting is never re-sent (some servers refuse re-sending
 * trusted IPs on some plans), and an empty secret keeps the stored one.
 */
export function formSchema(descriptor: AuthMethodDescriptor, mode: FormMode) {
  const fields = fieldsOf(descriptor);
  const limits = contractLimits(descriptor);
  const values = z.object(
    Object.fromEntries(fields.map((field) => [field.name, fieldSchema(field, limits[field.name])])),
  );
  const before = mode.mode === "update" ? values.safeParse(mode.initial).data : undefined;
  return values
    .transform((wire) => {
      const body: Record<string, unknown> = {};
      for (const field of fields) {
        const value = wire[field.name];
        if (value === undefined) continue;
        if (before && same(value, before[field.name])) continue;
        body[field.name] = value;
      }
      return body;
    })
    .pipe(
      // The body is built field by field from the descriptor; the contract's schema is what checks it.
      (mode.mode === "attach" ? descriptor.attachBody : descriptor.updateBody) as z.ZodType<
        Record<string, unknown>,
        Record<string, unknown>
      >,
    );
}

/** A field that restricts nothing as it stands, and whom the method then admits. */
export interface Unrestricted {
  field: FieldSpec;
  admits: string;
}

/** The fields that restrict nothing as typed (empty, or a trusted-IP list open to a whole family). */
export function unrestrictedFields(descriptor: AuthMethodDescriptor, values: AuthMethodFormValues): Unrestricted[] {
  return fieldsOf(descriptor).flatMap((field) => {
    if (!field.unrestricted) return [];
    const value = values[field.name];
    let admits: string | undefined;
    if (field.kind === "trusted-ips") {
      admits = trustedIpsAdmit(checkTrustedIps(((value ?? []) as TrustedIpRow[]).map((row) => row.ipAddress)));
    } else if (field.kind === "pairs") {
      const parsed = parsePairs(String(value ?? ""));
      admits = parsed.ok && Object.keys(parsed.value).length === 0 ? field.unrestricted : undefined;
    } else {
      admits = commaList(value).length === 0 ? field.unrestricted : undefined;
    }
    return admits ? [{ field, admits }] : [];
  });
}

/**
 * The form value that records the acknowledgement of unrestricted fields. It holds which fields
 * were acknowledged, so a field opened after the box was ticked needs it ticked again. It is never sent.
 */
export const ACKNOWLEDGED = "acknowledgedUnrestricted";

export const acknowledgementOf = (open: readonly Unrestricted[]) => open.map((entry) => entry.field.name).join(",");

/** Why a TTL cannot be saved beside the value it may not exceed, if it cannot. */
export function ttlAboveMax(
  descriptor: AuthMethodDescriptor,
  field: FieldSpec,
  values: AuthMethodFormValues,
  mode: FormMode["mode"],
): string | undefined {
  const other = field.atMost && fieldsOf(descriptor).find((f) => f.name === field.atMost);
  if (!other) return undefined;
  const ttl = parseTtl(String(values[field.name] ?? ""));
  const max = parseTtl(String(values[other.name] ?? ""));
  if (!ttl.ok || !max.ok || ttlWithinMax(ttl.seconds, max.seconds, mode)) return undefined;
  const name = other.label.charAt(0).toLowerCase() + other.label.slice(1);
  return max.seconds === 0
    ? `Must be 0 while the ${name} is 0`
    : `Cannot exceed the ${name} (${describeTtl(max.seconds).toLowerCase()})`;
}

/** The rules that read more than one value: a TTL within its max, and open fields acknowledged. */
export function formIssues(
  descriptor: AuthMethodDescriptor,
  values: AuthMethodFormValues,
  mode: FormMode["mode"],
): { path: string; message: string }[] {
  const issues = fieldsOf(descriptor).flatMap((field) => {
    const message = ttlAboveMax(descriptor, field, values, mode);
    return message ? [{ path: field.name, message }] : [];
  });
  const open = unrestrictedFields(descriptor, values);
  if (open.length > 0 && values[ACKNOWLEDGED] !== acknowledgementOf(open)) {
    issues.push({ path: ACKNOWLEDGED, message: "Confirm that you mean to admit this before saving" });
  }
  return issues;
}

/** The form's resolver: the schema's checks, then the rules across fields, all reported at once. */
export function formResolver(descriptor: AuthMethodDescriptor, mode: FormMode): Resolver<AuthMethodFormValues> {
  const schema = zodResolver(formSchema(descriptor, mode) as never) as unknown as Resolver<AuthMethodFormValues>;
  return async (values, context, options) => {
    const result = await schema(values, context, options);
    const issues = formIssues(descriptor, values, mode.mode);
    if (issues.length === 0) return result;
    const errors: Record<string, FieldError> = { ...(result.errors as Record<string, FieldError>) };
    // A rule across fields says more than the contract's version of it ("… (1 hour)").
    for (const issue of issues) errors[issue.path] = { type: "custom", message: issue.message };
    return { values: {}, errors } as Awaited<ReturnType<Resolver<AuthMethodFormValues>>>;
  };
}

/**
 * The values of some fields as the wire would carry them, read from the form as it stands: each
 * field that reads cleanly is included, one that does not (a half-typed line) is left out. The
 * credential tester applies the rules to these, before anything is saved.
 */
export function wireValuesOf(
  descriptor: AuthMethodDescriptor,
  values: AuthMethodFormValues,
  names: readonly string[],
): Record<string, unknown> {
  const limits = contractLimits(descriptor);
  const wire: Record<string, unknown> = {};
  for (const field of fieldsOf(descriptor)) {
    if (!names.includes(field.name) || values[field.name] === undefined) continue;
    const parsed = fieldSchema(field, limits[field.name]).safeParse(values[field.name]);
    if (parsed.success && parsed.data !== undefined && parsed.data !== null) wire[field.name] = parsed.data;
  }
  return wire;
}
