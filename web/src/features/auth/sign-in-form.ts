import { BffLoginBodySchema } from "@keyhold/contract";
import type { z } from "zod";
import { isApiError } from "@/lib/api-error";
import { errorSummary } from "@/lib/describe-error";

/** How the form signs in: with an access token, or with a universal-auth client ID and secret. */
export type SignInMode = "token" | "client";

/** The BFF's login body, one variant per mode. */
export const signInSchemas = { token: BffLoginBodySchema.options[0], client: BffLoginBodySchema.options[1] };
export const signInFields = { token: ["accessToken"], client: ["clientId", "clientSecret"] } as const;
export type SignInField = "accessToken" | "clientId" | "clientSecret";
export type SignInFieldErrors = Partial<Record<SignInField, string>>;

type ParsedSignIn =
  | { success: true; data: z.infer<typeof BffLoginBodySchema> }
  | { success: false; errors: SignInFieldErrors };

/** Reads the mode's fields from the form and checks them against the contract's schema (its wording). */
export function parseSignIn(mode: SignInMode, form: FormData): ParsedSignIn {
  const values = Object.fromEntries(signInFields[mode].map((name) => [name, form.get(name) ?? ""]));
  const parsed = signInSchemas[mode].safeParse(values);
  if (parsed.success) return { success: true, data: parsed.data };
  const errors: SignInFieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as SignInField;
    errors[field] ??= issue.message;
  }
  return { success: false, errors };
}

/** Why signing in failed, in words that say what to do next. */
export function signInErrorMessage(error: unknown, mode: SignInMode): string {
  if (isApiError(error, 401)) {
    return mode === "token"
      ? "That access token was not accepted. Check that it is complete and has not expired or been revoked."
      : "That client ID and secret were not accepted. Check both, and that the secret has not expired, run out of uses or been revoked.";
  }
  if (isApiError(error, 429)) return "Too many sign-in attempts. Wait a minute, then try again.";
  // The BFF says why live credentials may not sign in (the identity's role, its trusted IPs).
  if (isApiError(error, 403)) return error.message;
  return errorSummary(error, "Could not sign in");
}
