import type { DryRunLoginResult } from "@keyhold/contract";
import type { CredentialRefusal } from "@keyhold/contract/credential-rules";
import type { AuthMethodName } from "../data/auth-methods.ts";
import type { Actor } from "./access-tokens.ts";
import type { AuthMethodService } from "./auth-method-service.ts";
import { AppError, BadRequestError, ForbiddenError, PeerRefusedError, UnauthorizedError } from "./errors.ts";

/** Refuses a login with a shared rule's refusal (status and words as the rule gives them); no-op without one. */
export function refuseWith(refusal: CredentialRefusal | undefined): void {
  if (!refusal) return;
  if (refusal.statusCode === 400) throw new BadRequestError(refusal.message);
  if (refusal.statusCode === 403) throw new ForbiddenError(refusal.message);
  throw new UnauthorizedError(refusal.message);
}

/** What a dry run needs of a method when it is not attached: the attach defaults and the fields the body must give. */
export interface DryRunDefaults {
  defaults: Record<string, unknown>;
  required: readonly string[];
}

/**
 * The settings a dry run tries: the stored ones (credentials opened) with every field the body
 * gives put in their place; when the method is not attached, the body's alone over the attach
 * defaults. Needs the right to edit the identity, which must be in the caller's organisation.
 */
export async function dryRunSettings(
  authMethods: AuthMethodService,
  actor: Actor,
  method: AuthMethodName,
  identityId: string,
  overrides: Record<string, unknown>,
  whenNotAttached: DryRunDefaults,
): Promise<Record<string, unknown>> {
  const stored = await authMethods.forDryRun(actor, method, identityId);
  const given = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  if (stored) return { ...stored, ...given };
  const missing = whenNotAttached.required.filter((field) => !given[field]);
  if (missing.length > 0) {
    throw new BadRequestError(
      `${authMethods.specs[method].label} is not attached to this identity, so the settings must give ${missing.join(", ")}`,
    );
  }
  return { ...whenNotAttached.defaults, ...given };
}

/**
 * A dry run's answer when the peer step failed: the peer's refusal (or why it could not be
 * asked) in words, and the refusal the real login would answer. Errors that are not a login's
 * answer are thrown on.
 */
export function peerFailure(error: unknown): DryRunLoginResult {
  if (!(error instanceof AppError)) throw error;
  const refusal = { statusCode: error.statusCode, message: error.message };
  return {
    accepted: false,
    peer: {
      ok: false,
      message: error.message,
      ...(error instanceof PeerRefusedError && { statusCode: error.peerStatus }),
    },
    checks: [],
    refusal,
  };
}
