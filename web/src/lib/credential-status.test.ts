import type { AccessTokenRecord, ClientSecretRecord } from "@keyhold/contract";
import { describe, expect, it } from "vitest";
import { clientSecretState, tokenState, usesLabel } from "./credential-status";

const created = "2026-01-01T00:00:00.000Z";
const token: AccessTokenRecord = {
  id: "6f1c1a8e-0000-4000-8000-000000000001",
  identityId: "6f1c1a8e-0000-4000-8000-000000000002",
  name: "ci",
  authMethod: "token-auth",
  accessTokenTTL: 3600,
  accessTokenMaxTTL: 7200,
  accessTokenNumUses: 0,
  accessTokenNumUsesLimit: 0,
  accessTokenPeriod: 0,
  accessTokenLastUsedAt: null,
  accessTokenLastRenewedAt: null,
  isAccessTokenRevoked: false,
  createdAt: created,
  updatedAt: created,
  subOrganizationId: null,
};
const secret: ClientSecretRecord = {
  id: "6f1c1a8e-0000-4000-8000-000000000003",
  createdAt: created,
  updatedAt: created,
  description: "deploy",
  clientSecretPrefix: "abcd",
  clientSecretNumUses: 0,
  clientSecretNumUsesLimit: 0,
  clientSecretTTL: 0,
  identityUAId: "6f1c1a8e-0000-4000-8000-000000000004",
  isClientSecretRevoked: false,
};
const at = (iso: string) => new Date(iso);

describe("tokenState", () => {
  it("expires TTL after issue while fresh", () => {
    const state = tokenState(token, at("2026-01-01T00:30:00Z"));
    expect(state.status).toBe("active");
    expect(state.expiresAt?.toISOString()).toBe("2026-01-01T01:00:00.000Z");
  });

  it("counts the TTL from the last renewal, capped by the max TTL", () => {
    const renewed = { ...token, accessTokenLastRenewedAt: "2026-01-01T01:30:00.000Z" };
    expect(tokenState(renewed, at("2026-01-01T01:45:00Z")).expiresAt?.toISOString()).toBe("2026-01-01T02:00:00.000Z");
    expect(tokenState(renewed, at("2026-01-01T02:00:00Z")).status).toBe("expired");
  });

  it("has no expiry when TTL and max TTL are 0", () => {
    expect(tokenState({ ...token, accessTokenTTL: 0, accessTokenMaxTTL: 0 }).expiresAt).toBeNull();
  });

  it("puts revoked before used up before expired", () => {
    const late = at("2026-02-01T00:00:00Z");
    const usedUp = { ...token, accessTokenNumUses: 5, accessTokenNumUsesLimit: 5 };
    expect(tokenState(usedUp, late).status).toBe("used-up");
    expect(tokenState({ ...usedUp, isAccessTokenRevoked: true }, late).status).toBe("revoked");
  });
});

describe("clientSecretState", () => {
  it("never expires with a TTL of 0 and shows unlimited uses", () => {
    const state = clientSecretState({ ...secret, clientSecretNumUses: 3 }, at("2030-01-01T00:00:00Z"));
    expect(state).toMatchObject({ status: "active", expiresAt: null });
    expect(usesLabel(state)).toBe("3 / ∞");
  });

  it("expires TTL after creation", () => {
    const state = clientSecretState({ ...secret, clientSecretTTL: 86_400 }, at("2026-01-02T00:00:00Z"));
    expect(state.status).toBe("expired");
    expect(usesLabel({ ...state, usesLimit: 10 })).toBe("0 / 10");
  });
});
