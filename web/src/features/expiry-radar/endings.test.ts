import type { AccessTokenRecord, ClientSecretRecord } from "@keyhold/contract";
import { describe, expect, it } from "vitest";
import { clientSecretEndings, identityRoleEndings, privilegeEndings, tokenEndings } from "./endings";
import { extendedRange, formatRange } from "./extend";
import { inWindow, parseWindow } from "./window";

const bot = { id: "11111111-1111-4111-8111-111111111111", name: "ci-bot" };
const project = { id: "p1", name: "payments" };

const token = (over: Partial<AccessTokenRecord> = {}): AccessTokenRecord => ({
  id: "22222222-2222-4222-8222-222222222222",
  identityId: bot.id,
  name: "deploy",
  authMethod: "token-auth",
  accessTokenTTL: 3600,
  accessTokenMaxTTL: 0,
  accessTokenNumUses: 0,
  accessTokenNumUsesLimit: 0,
  accessTokenPeriod: 0,
  accessTokenLastUsedAt: null,
  accessTokenLastRenewedAt: null,
  isAccessTokenRevoked: false,
  identityUAClientSecretId: null,
  createdAt: "2026-11-28T10:00:00.000Z",
  updatedAt: "2026-11-28T10:00:00.000Z",
  subOrganizationId: null,
  ...over,
});

const secret = (over: Partial<ClientSecretRecord> = {}): ClientSecretRecord => ({
  id: "33333333-3333-4333-8333-333333333333",
  createdAt: "2026-11-28T10:00:00.000Z",
  updatedAt: "2026-11-28T10:00:00.000Z",
  description: "",
  clientSecretPrefix: "ab12",
  clientSecretNumUses: 0,
  clientSecretNumUsesLimit: 0,
  clientSecretTTL: 86_400,
  identityUAId: "44444444-4444-4444-8444-444444444444",
  isClientSecretRevoked: false,
  ...over,
});

describe("tokenEndings", () => {
  it("ends a token its TTL after its last renewal", () => {
    const [ending] = tokenEndings(bot, [token({ accessTokenLastRenewedAt: "2026-11-28T12:00:00.000Z" })]);
    expect(ending).toMatchObject({ endsAt: "2026-11-28T13:00:00.000Z", cause: "ttl", name: "deploy" });
  });

  it("says when the max TTL ends it before its TTL would", () => {
    const [ending] = tokenEndings(bot, [
      token({ accessTokenMaxTTL: 7200, accessTokenLastRenewedAt: "2026-11-28T11:30:00.000Z" }),
    ]);
    expect(ending).toMatchObject({ endsAt: "2026-11-28T12:00:00.000Z", cause: "max-ttl" });
  });

  it("leaves out tokens that never end, are revoked or are used up", () => {
    const endings = tokenEndings(bot, [
      token({ accessTokenTTL: 0 }),
      token({ isAccessTokenRevoked: true }),
      token({ accessTokenNumUsesLimit: 2, accessTokenNumUses: 2 }),
    ]);
    expect(endings).toEqual([]);
  });
});

describe("clientSecretEndings", () => {
  it("ends a client secret its TTL after creation and names it by prefix", () => {
    const endings = clientSecretEndings(bot, [secret({ description: "github" }), secret({ clientSecretTTL: 0 })]);
    expect(endings).toHaveLength(1);
    expect(endings[0]).toMatchObject({ endsAt: "2026-11-29T10:00:00.000Z", name: "github (ab12…)" });
  });
});

describe("grants", () => {
  const grant = {
    isTemporary: true,
    temporaryMode: "relative",
    temporaryRange: "1h",
    temporaryAccessStartTime: "2026-11-28T10:00:00.000Z",
    temporaryAccessEndTime: "2026-11-28T11:00:00.000Z",
  };

  it("takes temporary privileges and leaves permanent ones out", () => {
    const base = { createdAt: grant.temporaryAccessStartTime, updatedAt: grant.temporaryAccessStartTime };
    const endings = privilegeEndings(project, bot, [
      { id: "a", slug: "db-read", ...grant, ...base },
      { id: "b", slug: "always", isTemporary: false, ...base },
    ]);
    expect(endings.map((e) => e.name)).toEqual(["db-read"]);
    expect(endings[0]?.action).toEqual({
      type: "extend-privilege",
      privilegeId: "a",
      slug: "db-read",
      start: "2026-11-28T10:00:00.000Z",
    });
  });

  it("takes temporary identity roles, custom ones by name, with every role for the update", () => {
    const roles = [
      { id: "r1", role: "viewer", isTemporary: false },
      { id: "r2", role: "custom", customRoleName: "Deployer", customRoleSlug: "deployer", ...grant },
    ];
    const membership = {
      id: "m1",
      identityId: bot.id,
      createdAt: grant.temporaryAccessStartTime,
      updatedAt: grant.temporaryAccessStartTime,
      roles,
      identity: { ...bot, authMethods: [] },
      project,
    };
    const endings = identityRoleEndings(project, [membership]);
    expect(endings).toHaveLength(1);
    expect(endings[0]).toMatchObject({ name: "Deployer", project, endsAt: "2026-11-28T11:00:00.000Z" });
    expect(endings[0]?.action).toMatchObject({ type: "extend-identity-role", roleId: "r2", roles });
  });
});

describe("inWindow", () => {
  const now = Date.parse("2026-11-28T12:00:00.000Z");
  const at = (iso: string) => ({ endsAt: iso });

  it("counts an ending at now as expired, not as upcoming", () => {
    expect(inWindow(at("2026-11-28T12:00:00.000Z"), "expired", now)).toBe(true);
    expect(inWindow(at("2026-11-28T12:00:00.000Z"), "24h", now)).toBe(false);
    expect(inWindow(at("2026-11-28T12:00:01.000Z"), "expired", now)).toBe(false);
  });

  it("bounds the 24 h and 7 day windows inclusively", () => {
    expect(inWindow(at("2026-11-29T12:00:00.000Z"), "24h", now)).toBe(true);
    expect(inWindow(at("2026-11-29T12:00:01.000Z"), "24h", now)).toBe(false);
    expect(inWindow(at("2026-11-29T12:00:01.000Z"), "7d", now)).toBe(true);
    expect(inWindow(at("2026-12-05T12:00:01.000Z"), "7d", now)).toBe(false);
    expect(inWindow(at("2030-01-01T00:00:00.000Z"), "all", now)).toBe(true);
  });

  it("reads an unknown filter as 7 days", () => {
    expect(parseWindow("expired")).toBe("expired");
    expect(parseWindow("soon")).toBe("7d");
    expect(parseWindow(null)).toBe("7d");
  });
});

describe("extendedRange", () => {
  const now = Date.parse("2026-11-28T10:30:00.000Z");
  const grant = { start: "2026-11-28T10:00:00.000Z", endsAt: "2026-11-28T11:00:00.000Z" };

  it("moves a running grant's end by the step, keeping its start", () => {
    expect(extendedRange(grant, "1d", now)).toEqual({
      temporaryRange: "25h",
      temporaryAccessStartTime: "2026-11-28T10:00:00.000Z",
      end: Date.parse("2026-11-29T11:00:00.000Z"),
    });
  });

  it("restarts an expired grant's extension from now", () => {
    const later = Date.parse("2026-11-28T12:15:00.000Z");
    expect(extendedRange(grant, "1h", later)).toMatchObject({ temporaryRange: "195m" });
  });

  it("writes ranges in the largest whole unit, rounded up to the second", () => {
    expect(formatRange(2 * 86_400_000)).toBe("2d");
    expect(formatRange(90 * 60_000)).toBe("90m");
    expect(formatRange(1500)).toBe("2s");
    expect(formatRange(0)).toBe("1s");
  });
});
