import { CreateEnvironmentBodySchema, type Environment } from "@keyhold/contract";
import slugify from "@sindresorhus/slugify";
import type { z } from "zod";

/** Add and rename share one form: the environment's name and the slug secrets are addressed by. */
export const EnvironmentFormSchema = CreateEnvironmentBodySchema.pick({ name: true, slug: true });
export type EnvironmentFormInput = z.input<typeof EnvironmentFormSchema>;
export type EnvironmentFormValues = z.output<typeof EnvironmentFormSchema>;
export const environmentFormFields = ["name", "slug"] as const;

/** The slug a new environment gets from its name until the slug is edited by hand. */
export function environmentSlugFrom(name: string): string {
  return slugify(name).slice(0, 64).replace(/-+$/, "");
}

export function toEnvironmentFormValues(environment?: Environment): EnvironmentFormInput {
  return environment ? { name: environment.name, slug: environment.slug } : { name: "", slug: "" };
}

/** Only what changed is sent on rename, so a server with stricter rules for one field is not asked about both. */
export function changedEnvironmentFields(environment: Environment, values: EnvironmentFormValues) {
  return {
    ...(values.name !== environment.name ? { name: values.name } : {}),
    ...(values.slug !== environment.slug ? { slug: values.slug } : {}),
  };
}
