import {
  type AuditLogStream,
  MASKED_HEADER_VALUE,
  StreamCredentialsSchema,
  StreamHeaderSchema,
} from "@keyhold/contract";
import { z } from "zod";
import type { CreateStreamBody, UpdateStreamBody } from "./api";

/** The provider this console creates: an HTTP endpoint that receives the events as JSON. */
export const STREAM_PROVIDER = "custom";

const HeaderRowSchema = z
  .object({
    key: z.string().trim().min(1, "Enter the header's name").pipe(StreamHeaderSchema.shape.key),
    value: z.string(),
    /** The name under which the server already holds a value for this row; null for a new row. */
    storedKey: z.string().nullable(),
  })
  .superRefine((row, ctx) => {
    // A stored value is never shown: left blank, it is kept, as long as the row still names it.
    if (row.value === "" && keepsStoredValue(row)) return;
    const checked = StreamHeaderSchema.shape.value.safeParse(row.value);
    if (!checked.success) {
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message:
          row.value === "" ? "Enter the header's value" : (checked.error.issues[0]?.message ?? "Not a valid value"),
      });
    }
  });

export const StreamFormSchema = z
  .object({
    url: z
      .string()
      .trim()
      .min(1, "Enter the URL that receives the events")
      .pipe(StreamCredentialsSchema.shape.url)
      .refine((url) => /^https?:\/\//i.test(url), "Use an http:// or https:// URL"),
    headers: z.array(HeaderRowSchema),
  })
  .superRefine((form, ctx) => {
    const seen = new Set<string>();
    form.headers.forEach((row, index) => {
      const name = row.key.trim().toLowerCase();
      if (name && seen.has(name)) {
        ctx.addIssue({ code: "custom", path: ["headers", index, "key"], message: "This header is already set above" });
      }
      seen.add(name);
    });
  });

export type StreamFormInput = z.input<typeof StreamFormSchema>;
export type StreamFormValues = z.output<typeof StreamFormSchema>;
export type HeaderRow = StreamFormValues["headers"][number];

/** The form's fields that a server's 422 issues may name (`credentials.url` is mapped onto `url`). */
export const streamFormFields = ["url", "headers"] as const;

function keepsStoredValue(row: { key: string; storedKey: string | null }): boolean {
  return row.storedKey !== null && row.key.trim() === row.storedKey;
}

/** A new stream's form, or an existing one's: its URL and header names; values are never shown. */
export function toStreamFormValues(stream?: AuditLogStream): StreamFormInput {
  if (!stream) return { url: "", headers: [] };
  return {
    url: stream.credentials.url,
    headers: stream.credentials.headers.map((header) => ({ key: header.key, value: "", storedKey: header.key })),
  };
}

/** A header as sent: a row left blank sends the mask, which tells the server to keep what it holds. */
function headerToSend(row: HeaderRow): { key: string; value: string } {
  const key = row.key.trim();
  return { key, value: row.value === "" && keepsStoredValue(row) ? MASKED_HEADER_VALUE : row.value };
}

export function toCreateBody(values: StreamFormValues): CreateStreamBody {
  return { credentials: { url: values.url, headers: values.headers.map(headerToSend) } };
}

/** The whole credentials are sent: a server stores the header list as given (a missing one is removed). */
export function toUpdateBody(values: StreamFormValues): UpdateStreamBody {
  return { credentials: { url: values.url, headers: values.headers.map(headerToSend) } };
}

/** "credentials.url" → "url", "credentials.headers.0.value" → "headers.0.value": server issues onto the form. */
export function formPathOfIssue(path: string): string {
  return path.replace(/^credentials\./, "");
}
