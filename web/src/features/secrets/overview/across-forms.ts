import { SecretNameSchema } from "@keyhold/contract";
import { z } from "zod";
import type { WriteOutcome } from "./mutations";

/** The add-key dialog: a key the service accepts, any value, at least one environment. */
export const AddKeyFormSchema = z.object({
  secretKey: SecretNameSchema,
  secretValue: z.string(),
  environments: z.array(z.string()).min(1, "Pick at least one environment"),
});
export type AddKeyFormValues = z.output<typeof AddKeyFormSchema>;

/** The copy dialog: where to copy to. */
export const CopyValueFormSchema = z.object({
  targets: z.array(z.string()).min(1, "Pick at least one environment to copy to"),
});
export type CopyValueFormValues = z.output<typeof CopyValueFormSchema>;

/** The environments' names for their slugs, in the given order. */
export function namesOf(slugs: readonly string[], environments: readonly { slug: string; name: string }[]): string {
  return slugs.map((slug) => environments.find((env) => env.slug === slug)?.name ?? slug).join(", ");
}

/** A sentence for what failed in a write across environments; undefined when nothing did. */
export function failureSummary(
  outcome: WriteOutcome,
  environments: readonly { slug: string; name: string }[],
  describe: (error: unknown) => string,
): string | undefined {
  if (outcome.failed.length === 0) return undefined;
  return outcome.failed
    .map(({ environment, error }) => `${namesOf([environment], environments)}: ${describe(error)}`)
    .join(" ");
}
