import type { AccessTokenRecord, ClientSecretRecord } from "@keyhold/contract";

export type CredentialStatus = "active" | "expired" | "used-up" | "revoked";

export interface CredentialState {
  status: CredentialStatus;
  /** When it stops working by time, or null when it has no expiry. */
  expiresAt: Date | null;
  uses: number;
  /** 0 means unlimited. */
  usesLimit: number;
}

const seconds = (value: number) => value * 1000;

function statusOf(revoked: boolean, expiresAt: Date | null, uses: number, usesLimit: number, now: Date) {
  if (revoked) return "revoked";
  if (usesLimit > 0 && uses >= usesLimit) return "used-up";
  if (expiresAt && expiresAt.getTime() <= now.getTime()) return "expired";
  return "active";
}

/**
 * A token expires TTL seconds after it was issued or last renewed, and never later than its
 * max TTL after it was issued (0 for either means no such limit).
 */
export function tokenState(token: AccessTokenRecord, now: Date = new Date()): CredentialState {
  const created = new Date(token.createdAt).getTime();
  const renewed = token.accessTokenLastRenewedAt ? new Date(token.accessTokenLastRenewedAt).getTime() : created;
  const limits = [
    token.accessTokenTTL > 0 ? renewed + seconds(token.accessTokenTTL) : Number.POSITIVE_INFINITY,
    token.accessTokenMaxTTL > 0 ? created + seconds(token.accessTokenMaxTTL) : Number.POSITIVE_INFINITY,
  ];
  const end = Math.min(...limits);
  const expiresAt = Number.isFinite(end) ? new Date(end) : null;
  const { accessTokenNumUses: uses, accessTokenNumUsesLimit: usesLimit } = token;
  return { status: statusOf(token.isAccessTokenRevoked, expiresAt, uses, usesLimit, now), expiresAt, uses, usesLimit };
}

/** A client secret expires its TTL after it was created (0: never). */
export function clientSecretState(secret: ClientSecretRecord, now: Date = new Date()): CredentialState {
  const expiresAt =
    secret.clientSecretTTL > 0
      ? new Date(new Date(secret.createdAt).getTime() + seconds(secret.clientSecretTTL))
      : null;
  const { clientSecretNumUses: uses, clientSecretNumUsesLimit: usesLimit } = secret;
  return {
    status: statusOf(secret.isClientSecretRevoked, expiresAt, uses, usesLimit, now),
    expiresAt,
    uses,
    usesLimit,
  };
}

/** "3 / 10", or "3 / ∞" when unlimited. */
export function usesLabel({ uses, usesLimit }: CredentialState): string {
  return `${uses} / ${usesLimit > 0 ? usesLimit : "∞"}`;
}
