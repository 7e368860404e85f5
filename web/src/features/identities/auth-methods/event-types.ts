import { WRITTEN_AUDIT_EVENT_TYPES } from "@keyhold/contract/audit-events-written";

/**
 * The audit event types of one auth method (`universal-auth`, `oidc-auth`…): attached, changed,
 * read, revoked, its sign-ins and refused sign-ins, and its credentials (client secrets, tokens).
 */
export function authMethodEventTypes(method: string): string[] {
  return WRITTEN_AUDIT_EVENT_TYPES.filter((type) => type.includes(`identity-${method}`));
}
