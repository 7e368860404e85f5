import { FolderNameSchema, SecretNameSchema } from "@keyhold/contract";
import { z } from "zod";
import type { NewSecret } from "./api";

/** The create-secret dialog: the contract's key rules, any value, an optional comment and tags. */
export const NewSecretFormSchema = z.object({
  secretKey: SecretNameSchema,
  secretValue: z.string(),
  secretComment: z.string(),
  tagIds: z.array(z.string()),
});
export type NewSecretFormInput = z.input<typeof NewSecretFormSchema>;
export type NewSecretFormValues = z.output<typeof NewSecretFormSchema>;
export const newSecretFields = ["secretKey", "secretValue", "secretComment", "tagIds"] as const;

export function emptyNewSecret(): NewSecretFormInput {
  return { secretKey: "", secretValue: "", secretComment: "", tagIds: [] };
}

export function toNewSecret(values: NewSecretFormValues): NewSecret {
  return {
    secretKey: values.secretKey,
    secretValue: values.secretValue,
    secretComment: values.secretComment,
    ...(values.tagIds.length > 0 ? { tagIds: values.tagIds } : {}),
  };
}

/** The new-folder dialog: a name the service accepts. */
export const NewFolderFormSchema = z.object({
  name: z.string().trim().min(1, "Folder name is required").pipe(FolderNameSchema),
});
export type NewFolderFormValues = z.output<typeof NewFolderFormSchema>;
