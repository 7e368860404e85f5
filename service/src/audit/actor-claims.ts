import type { Actor } from "../domain/access-tokens.ts";

/**
 * What an actor's metadata adds for a token an OIDC login issued with a claimMetadataMapping: the
 * mapped claims, as `oidc.claims` (recording 2026-06-more/069). The claims were read with the
 * token on authentication (one column of the same row), so nothing more is read here; tokens
 * without claims (nearly all) add nothing.
 */
export function oidcClaimsMetadata(actor: Pick<Actor, "claimMetadata">): { oidc?: { claims: Record<string, string> } } {
  if (!actor.claimMetadata) return {};
  return { oidc: { claims: JSON.parse(actor.claimMetadata) as Record<string, string> } };
}
