import { BffLoginBodySchema } from "@keyhold/contract";
import type { z } from "zod";
import { isApiError } from "@/lib/api-error";
import { errorSummary } from "@/lib/describe-error";

/** The access-token variant of the BFF's login body. */
export const SignInFormSchema = BffLoginBodySchema.options[0];
export type SignInFormValues = z.input<typeof SignInFormSchema>;

/** The message for the token field when the form does not pass the schema (the contract's wording). */
export function accessTokenError(error: z.ZodError<SignInFormValues>): string {
  return error.issues.find((issue) => issue.path[0] === "accessToken")?.message ?? "Paste an access token";
}

/** Why signing in failed, in words that say what to do next. */
export function signInErrorMessage(error: unknown): string {
  if (isApiError(error, 401)) {
    return "That access token was not accepted. Check that it is complete and has not expired or been revoked.";
  }
  if (isApiError(error, 429)) return "Too many sign-in attempts. Wait a minute, then try again.";
  // The BFF says why a live token may not sign in (its role, its trusted IPs).
  if (isApiError(error, 403)) return error.message;
  return errorSummary(error, "Could not sign in");
}
