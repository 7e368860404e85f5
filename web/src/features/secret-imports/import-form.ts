import { SecretPath } from "@keyhold/contract";
import { z } from "zod";
import type { ImportRow } from "./provided-keys";

/** Folder names may hold letters, digits, dashes and underscores (Infisical's folder-name rule). */
const FOLDER_SEGMENT = /^[\w-]+$/;

/** Whether a folder exists in an environment; undefined when that cannot be told (the server then decides). */
export type FolderExists = (environment: string, path: string) => Promise<boolean | undefined>;

/**
 * The source of a new import: an environment and a folder path, checked as far as the console
 * can before asking the server (which still decides whether the import would close a cycle).
 * Given `exists`, a folder that does not exist is refused: servers accept an import of one, which
 * then brings nothing.
 */
export function importFormSchema(
  folder: { environment: string; path: string },
  existing: readonly ImportRow[],
  exists?: FolderExists,
) {
  const schema = z
    .object({
      environment: z.string().trim().min(1, "Choose the environment to import from"),
      path: SecretPath.refine(
        (path) =>
          path === "/" ||
          path
            .split("/")
            .slice(1)
            .every((segment) => FOLDER_SEGMENT.test(segment)),
        "A path is / or /folder/sub-folder, with letters, digits, dashes and underscores",
      ),
    })
    .superRefine((source, ctx) => {
      if (source.environment === folder.environment && source.path === folder.path) {
        ctx.addIssue({ code: "custom", path: ["path"], message: "A folder cannot import itself" });
      } else if (existing.some((row) => row.importEnv.slug === source.environment && row.importPath === source.path)) {
        ctx.addIssue({ code: "custom", path: ["path"], message: "This folder already imports that one" });
      }
    });
  if (!exists) return schema;
  return schema.superRefine(async (source, ctx) => {
    if ((await exists(source.environment, source.path)) === false) {
      ctx.addIssue({
        code: "custom",
        path: ["path"],
        message: `Folder ${source.path} does not exist in ${source.environment}`,
      });
    }
  });
}

export type ImportFormInput = z.input<ReturnType<typeof importFormSchema>>;
export type ImportFormValues = z.output<ReturnType<typeof importFormSchema>>;
export const importFormFields = ["environment", "path"] as const;

/** The path typed into the location bar, normalised like a request's (`db/` → `/db`), or undefined when invalid. */
export function normalisePath(input: string): string | undefined {
  const parsed = SecretPath.safeParse(input);
  if (!parsed.success) return undefined;
  const path = parsed.data;
  return path === "/" ||
    path
      .split("/")
      .slice(1)
      .every((segment) => FOLDER_SEGMENT.test(segment))
    ? path
    : undefined;
}
