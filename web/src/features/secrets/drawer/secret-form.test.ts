import { describe, expect, it } from "vitest";
import {
  type EditableSecret,
  placeServerError,
  SecretFormSchema,
  type SecretFormValues,
  toFormValues,
  toSecretChanges,
} from "./secret-form";

const secret: EditableSecret = {
  secretKey: "DATABASE_URL",
  secretValue: "postgres://app@db/main",
  secretComment: "primary database",
  skipMultilineEncoding: false,
  secretReminderNote: null,
  secretReminderRepeatDays: null,
  secretValueHidden: false,
  tags: [
    { id: "t1", slug: "backend", name: "backend", color: "#4f46e5" },
    { id: "t2", slug: "shared", name: "shared" },
  ],
  secretMetadata: [{ key: "owner", value: "payments" }],
};

/** The form as the user left it: the secret's own values with `edits` on top, parsed like a submit. */
function submitted(edits: Partial<ReturnType<typeof toFormValues>>, from = secret): SecretFormValues {
  return SecretFormSchema.parse({ ...toFormValues(from), ...edits });
}

describe("toSecretChanges", () => {
  it("sends nothing when nothing changed, tags in another order included", () => {
    expect(toSecretChanges(submitted({}), secret)).toBeUndefined();
    expect(toSecretChanges(submitted({ tagIds: ["t2", "t1"] }), secret)).toBeUndefined();
  });

  it("sends only the fields that changed: the value only when it was edited", () => {
    expect(toSecretChanges(submitted({ secretComment: "replica" }), secret)).toEqual({ secretComment: "replica" });
    expect(
      toSecretChanges(submitted({ secretValue: "line one\nline two", skipMultilineEncoding: true }), secret),
    ).toEqual({ secretValue: "line one\nline two", skipMultilineEncoding: true });
    expect(toSecretChanges(submitted({ tagIds: ["t2"] }), secret)).toEqual({ tagIds: ["t2"] });
  });

  it("sends the whole metadata list, trimmed, when a row changes, is added or removed", () => {
    expect(
      toSecretChanges(
        submitted({
          metadata: [
            { key: " owner ", value: "payments" },
            { key: "tier", value: "1" },
          ],
        }),
        secret,
      ),
    ).toEqual({
      secretMetadata: [
        { key: "owner", value: "payments" },
        { key: "tier", value: "1" },
      ],
    });
    expect(toSecretChanges(submitted({ metadata: [] }), secret)).toEqual({ secretMetadata: [] });
  });

  it("sets a reminder with a number of days, and clears it with null", () => {
    expect(toSecretChanges(submitted({ reminderNote: " rotate it ", reminderRepeatDays: "30" }), secret)).toEqual({
      secretReminderNote: "rotate it",
      secretReminderRepeatDays: 30,
    });
    const reminded = { ...secret, secretReminderNote: "rotate it", secretReminderRepeatDays: 30 };
    expect(toSecretChanges(submitted({ reminderNote: "", reminderRepeatDays: "" }, reminded), reminded)).toEqual({
      secretReminderNote: null,
      secretReminderRepeatDays: null,
    });
  });

  it("renames with newSecretName, with the value only when it was edited too", () => {
    expect(toSecretChanges(submitted({ secretKey: "PRIMARY_DATABASE_URL" }), secret)).toEqual({
      newSecretName: "PRIMARY_DATABASE_URL",
    });
    expect(toSecretChanges(submitted({ secretKey: "MAIN_DB", secretValue: "new" }), secret)).toEqual({
      newSecretName: "MAIN_DB",
      secretValue: "new",
    });
  });

  it("never sends back a value the caller may not read", () => {
    const hidden = { ...secret, secretValue: "<hidden-by-infisical>", secretValueHidden: true };
    expect(toFormValues(hidden).secretValue).toBe("");
    expect(toSecretChanges(submitted({ secretKey: "OTHER" }, hidden), hidden)).toEqual({ newSecretName: "OTHER" });
    expect(toSecretChanges(submitted({ secretComment: "note" }, hidden), hidden)).toEqual({ secretComment: "note" });
    expect(toSecretChanges(submitted({}, hidden), hidden)).toBeUndefined();
    // Typing a value where the old one is hidden replaces it.
    expect(toSecretChanges(submitted({ secretValue: "typed" }, hidden), hidden)).toEqual({ secretValue: "typed" });
  });
});

describe("SecretFormSchema", () => {
  it("refuses a name with a slash, a metadata row without a key, duplicate keys and repeat days out of range", () => {
    const result = SecretFormSchema.safeParse({
      ...toFormValues(secret),
      secretKey: "a/b",
      metadata: [
        { key: "", value: "x" },
        { key: "owner", value: "a" },
        { key: "owner", value: "b" },
      ],
      reminderRepeatDays: "400",
    });
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual([
      "secretKey",
      "metadata.0.key",
      "metadata.2.key",
      "reminderRepeatDays",
    ]);
  });

  it("accepts whole days from 1 to 365 only", () => {
    const days = (text: string) => SecretFormSchema.safeParse({ ...toFormValues(secret), reminderRepeatDays: text });
    expect(days("1").success).toBe(true);
    expect(days("365").success).toBe(true);
    expect(days("0").error?.issues.map((issue) => issue.message)).toEqual(["A whole number of days from 1 to 365"]);
    expect(days("2.5").success).toBe(false);
    expect(days("").success).toBe(true);
  });

  it("refuses a reminder note without a number of days", () => {
    const result = SecretFormSchema.safeParse({ ...toFormValues(secret), reminderNote: "rotate" });
    expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["reminderRepeatDays", "Say how often to remind, or clear the note"],
    ]);
  });
});

describe("placeServerError", () => {
  const refused = (status: number, message: string, issues: { path: PropertyKey[]; message: string }[] = []) => ({
    status,
    message,
    isValidation: status === 422,
    issues,
  });

  it("puts a refused rename's reason on the name", () => {
    expect(
      placeServerError(refused(400, "Secret with the new name already exists"), { newSecretName: "TAKEN" }),
    ).toEqual({ fields: [{ field: "secretKey", message: "Secret with the new name already exists" }], rest: [] });
  });

  it("puts validation issues on the fields that edit the wire fields they name, the rest aside", () => {
    const placement = placeServerError(
      refused(422, "invalid", [
        { path: ["secretMetadata", 0, "key"], message: "Too small" },
        { path: ["body", "secretReminderRepeatDays"], message: "Too big" },
        { path: ["workspaceId"], message: "Required" },
      ]),
      { secretComment: "x" },
    );
    expect(placement).toEqual({
      fields: [
        { field: "metadata", message: "Too small" },
        { field: "reminderRepeatDays", message: "Too big" },
      ],
      rest: ["workspaceId: Required"],
    });
  });

  it("leaves a 400 that is not about a rename to the form's alert", () => {
    expect(placeServerError(refused(404, "Tag not found"), { tagIds: ["x"] })).toEqual({
      fields: [],
      rest: ["Tag not found"],
    });
  });
});
