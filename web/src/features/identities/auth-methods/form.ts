import { z } from "zod";
import type { AuthMethodConfig, AuthMethodDescriptor, AuthMethodRecord, FieldSpec } from "./descriptor";
import { fieldsOf } from "./descriptor";
import { checkTrustedIps, trustedIpText } from "./trusted-ips";
import { formatTtl, parseTtl } from "./ttl";

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
function fieldSchema(field: FieldSpec): z.ZodType<unknown, FormValue> {
  switch (field.kind) {
    case "ttl":
      return z.string().transform((text, ctx) => {
        const parsed = parseTtl(text);
        if (parsed.ok) return parsed.seconds;
        ctx.addIssue({ code: "custom", message: parsed.message });
        return z.NEVER;
      }) as z.ZodType<unknown, FormValue>;
    case "number":
      return z.string().transform((text, ctx) => {
        if (/^\s*\d+\s*$/.test(text)) return Number(text);
        ctx.addIssue({ code: "custom", message: "Enter a whole number" });
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
  const values = z.object(Object.fromEntries(fields.map((field) => [field.name, fieldSchema(field)])));
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
