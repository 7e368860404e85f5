import { type SecretDetail, SecretNameSchema, UpdateSecretBodySchema } from "@keyhold/contract";
import { z } from "zod";
import type { SecretChanges } from "../api";

/** The parts of a secret the drawer edits. */
export type EditableSecret = Pick<
  SecretDetail,
  | "secretKey"
  | "secretValue"
  | "secretComment"
  | "skipMultilineEncoding"
  | "secretReminderNote"
  | "secretReminderRepeatDays"
  | "secretValueHidden"
  | "tags"
  | "secretMetadata"
>;

const body = UpdateSecretBodySchema.shape;
const repeatDays = body.secretReminderRepeatDays.unwrap().unwrap();
// The contract's bounds decide; the words say them. (`minValue`/`maxValue` would pull zod's JSON
// Schema code, which the console's build leaves out.)
const repeatDaysRange = "A whole number of days from 1 to 365";

const MetadataRowSchema = z.object({
  key: z.string().trim().min(1, "Key is required"),
  value: z.string(),
});

/** Every field present, so the form is controlled; text inputs stay text until parsed. */
export const SecretFormSchema = z
  .object({
    secretKey: SecretNameSchema,
    secretValue: z.string(),
    skipMultilineEncoding: z.boolean(),
    secretComment: z.string(),
    tagIds: z.array(z.string()),
    metadata: z.array(MetadataRowSchema).superRefine((rows, ctx) => {
      const seen = new Set<string>();
      rows.forEach((row, index) => {
        const key = row.key.trim();
        if (key && seen.has(key))
          ctx.addIssue({ code: "custom", message: "Keys must be unique", path: [index, "key"] });
        seen.add(key);
      });
    }),
    reminderNote: body.secretReminderNote.unwrap().unwrap(),
    reminderRepeatDays: z
      .string()
      .trim()
      .refine((text) => text === "" || repeatDays.safeParse(Number(text)).success, repeatDaysRange),
  })
  .refine((values) => values.reminderNote.trim() === "" || values.reminderRepeatDays !== "", {
    message: "Say how often to remind, or clear the note",
    path: ["reminderRepeatDays"],
  });
export type SecretFormInput = z.input<typeof SecretFormSchema>;
export type SecretFormValues = z.output<typeof SecretFormSchema>;

/** The form fields a server's 422 issue may name (on the wire or in the form). */
export const secretFormFields = [
  "secretKey",
  "secretValue",
  "skipMultilineEncoding",
  "secretComment",
  "tagIds",
  "metadata",
  "reminderNote",
  "reminderRepeatDays",
] as const;

/** Wire names of the update body mapped to the form field that edits them, for placing server issues. */
export const wireToFormField: Record<string, (typeof secretFormFields)[number]> = {
  newSecretName: "secretKey",
  secretValue: "secretValue",
  skipMultilineEncoding: "skipMultilineEncoding",
  secretComment: "secretComment",
  tagIds: "tagIds",
  secretMetadata: "metadata",
  secretReminderNote: "reminderNote",
  secretReminderRepeatDays: "reminderRepeatDays",
};

export function toFormValues(secret: EditableSecret): SecretFormInput {
  return {
    secretKey: secret.secretKey,
    secretValue: secret.secretValueHidden ? "" : secret.secretValue,
    skipMultilineEncoding: secret.skipMultilineEncoding ?? false,
    secretComment: secret.secretComment,
    tagIds: (secret.tags ?? []).map((tag) => tag.id),
    metadata: (secret.secretMetadata ?? []).map(({ key, value }) => ({ key, value })),
    reminderNote: secret.secretReminderNote ?? "",
    reminderRepeatDays: secret.secretReminderRepeatDays == null ? "" : String(secret.secretReminderRepeatDays),
  };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item) => b.includes(item));
}

function sameRows(a: readonly { key: string; value: string }[], b: readonly { key: string; value: string }[]) {
  return a.length === b.length && a.every((row, i) => row.key === b[i]?.key && row.value === b[i]?.value);
}

/** The fields of an update that change something; empty when the form holds what the server has. */
export function changedFields(values: SecretFormValues, secret: EditableSecret): SecretChanges {
  const saved = toFormValues(secret);
  const metadata = values.metadata.map((row) => ({ key: row.key.trim(), value: row.value }));
  const note = values.reminderNote.trim();
  const days = values.reminderRepeatDays === "" ? null : Number(values.reminderRepeatDays);
  // A value the caller may not read shows as empty: typing one replaces it.
  const valueChanged = secret.secretValueHidden ? values.secretValue !== "" : values.secretValue !== saved.secretValue;
  return {
    ...(values.secretKey !== secret.secretKey && { newSecretName: values.secretKey }),
    ...(valueChanged && { secretValue: values.secretValue }),
    ...(values.skipMultilineEncoding !== saved.skipMultilineEncoding && {
      skipMultilineEncoding: values.skipMultilineEncoding,
    }),
    ...(values.secretComment !== saved.secretComment && { secretComment: values.secretComment }),
    ...(!sameSet(values.tagIds, saved.tagIds ?? []) && { tagIds: values.tagIds }),
    ...(!sameRows(metadata, saved.metadata ?? []) && { secretMetadata: metadata }),
    ...(note !== (saved.reminderNote ?? "") && { secretReminderNote: note === "" ? null : note }),
    ...(days !== (secret.secretReminderRepeatDays ?? null) && { secretReminderRepeatDays: days }),
  };
}

/**
 * What a save sends: only what changed, or undefined when nothing did. The value goes only when
 * it was edited, so a value someone else saved meanwhile is not overwritten with the one this
 * page read. (Servers of 2024 refuse any update without a value: the BFF's compatibility layer
 * sends the value the secret has at that moment there.)
 */
export function toSecretChanges(values: SecretFormValues, secret: EditableSecret): SecretChanges | undefined {
  const changes = changedFields(values, secret);
  return Object.keys(changes).length === 0 ? undefined : changes;
}

/** Where a refused save's reasons go: onto the fields they name, the rest for the form's alert. */
export interface ServerErrorPlacement {
  fields: { field: (typeof secretFormFields)[number]; message: string }[];
  /** Anything no field can take; undefined when every reason found its field. */
  rest: string[];
}

/**
 * A refused save, placed: each 422 issue on the field that edits the wire field it names, and a
 * refused rename (Infisical answers 400 "Secret with the new name already exists") on the name.
 */
export function placeServerError(
  error: { status: number; message: string; isValidation: boolean; issues: { path: PropertyKey[]; message: string }[] },
  changes: SecretChanges,
): ServerErrorPlacement {
  const placement: ServerErrorPlacement = { fields: [], rest: [] };
  if (error.isValidation && error.issues.length > 0) {
    for (const issue of error.issues) {
      const segments = issue.path.filter((segment) => segment !== "body").map(String);
      const field = wireToFormField[segments[0] ?? ""];
      if (field) placement.fields.push({ field, message: issue.message });
      else placement.rest.push(segments.length > 0 ? `${segments.join(".")}: ${issue.message}` : issue.message);
    }
    return placement;
  }
  if (changes.newSecretName !== undefined && error.status === 400 && /name|exists/i.test(error.message)) {
    placement.fields.push({ field: "secretKey", message: error.message });
    return placement;
  }
  placement.rest.push(error.message);
  return placement;
}
