import { CreateProjectBodySchema, type Project, slugSchema } from "@keyhold/contract";
import slugify from "@sindresorhus/slugify";
import { z } from "zod";

/** The bounds Infisical puts on a slug chosen at project creation. */
export const PROJECT_SLUG_MIN = 5;
export const PROJECT_SLUG_MAX = 36;
const SUFFIX_LENGTH = 4;
const SUFFIX_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** Four random lowercase letters and digits, as the server appends to a project's default slug. */
export function randomSlugSuffix(random: (size: number) => Uint8Array = defaultRandom): string {
  return Array.from(random(SUFFIX_LENGTH), (byte) => SUFFIX_ALPHABET[byte % SUFFIX_ALPHABET.length]).join("");
}

function defaultRandom(size: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(size));
}

/**
 * The slug the server would give a project of this name: the name and a random suffix, slugified
 * (transliterated, lowercase, single hyphens). The console sends it explicitly, so what the form
 * previews is what the project gets. The name part is shortened to keep within 36 characters.
 */
export function projectSlugFrom(name: string, suffix: string): string {
  const room = PROJECT_SLUG_MAX - suffix.length - 1;
  const base = slugify(name).slice(0, room).replace(/-+$/, "");
  return `${base || "project"}-${suffix}`;
}

/** The create dialog: the contract's create body with every field present, so the form is controlled. */
export const CreateProjectFormSchema = CreateProjectBodySchema.pick({ projectName: true }).extend({
  projectDescription: z.string().trim().max(256, "Description must be at most 256 characters"),
  slug: slugSchema(PROJECT_SLUG_MIN, PROJECT_SLUG_MAX),
  shouldCreateDefaultEnvs: z.boolean(),
  hasDeleteProtection: z.boolean(),
});
export type CreateProjectFormInput = z.input<typeof CreateProjectFormSchema>;
export type CreateProjectFormValues = z.output<typeof CreateProjectFormSchema>;
export const createProjectFormFields = [
  "projectName",
  "projectDescription",
  "slug",
  "shouldCreateDefaultEnvs",
  "hasDeleteProtection",
] as const;

export function toCreateFormValues(suffix: string): CreateProjectFormInput {
  return {
    projectName: "",
    projectDescription: "",
    slug: projectSlugFrom("", suffix),
    shouldCreateDefaultEnvs: true,
    hasDeleteProtection: false,
  };
}

/** The create body; a description only where there is one and the server keeps descriptions. */
export function toCreateBody(values: CreateProjectFormValues, server = { descriptions: true }) {
  const { projectDescription, ...rest } = values;
  return { ...rest, ...(projectDescription && server.descriptions ? { projectDescription } : {}) };
}

/** Project settings: name, description and delete protection. */
export const ProjectSettingsFormSchema = z.object({
  name: CreateProjectBodySchema.shape.projectName,
  description: z.string().trim().max(256, "Description must be at most 256 characters"),
  hasDeleteProtection: z.boolean(),
});
export type ProjectSettingsFormInput = z.input<typeof ProjectSettingsFormSchema>;
export type ProjectSettingsFormValues = z.output<typeof ProjectSettingsFormSchema>;
export const projectSettingsFormFields = ["name", "description", "hasDeleteProtection"] as const;

export function toSettingsFormValues(project: Project): ProjectSettingsFormInput {
  return {
    name: project.name,
    description: project.description ?? "",
    hasDeleteProtection: project.hasDeleteProtection ?? false,
  };
}
