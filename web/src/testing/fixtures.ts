import type { BffSession, IdentityMembership, Project } from "@keyhold/contract";

export const ORG_ID = "6f1c7a38-1e1a-4f5e-9a51-3a4a0c1d2b3e";
export const IDENTITY_ID = "0b8a5f0e-3c2d-4e1f-8a9b-7c6d5e4f3a2b";

export const session: BffSession = {
  identity: { id: IDENTITY_ID, name: "admin", role: "admin" },
  organization: { id: ORG_ID },
  expiresAt: "2030-01-01T00:00:00.000Z",
  idleExpiresAt: "2030-01-01T00:00:00.000Z",
  server: {
    features: [
      { name: "auditLogs", available: true },
      { name: "deleteProtection", available: true },
      { name: "dryRunLogin", available: true },
      { name: "multipleAuthMethods", available: true },
      { name: "privilegesV2", available: true },
      { name: "projectDescription", available: true },
    ],
  },
};

export function membership(overrides: Partial<IdentityMembership> = {}): IdentityMembership {
  return {
    id: "9d9c1a1e-5b5b-4c4c-8d8d-1e1e2f2f3a3a",
    role: "member",
    roleId: null,
    orgId: ORG_ID,
    createdAt: "2026-01-02T03:04:05.000Z",
    updatedAt: "2026-01-03T03:04:05.000Z",
    identityId: IDENTITY_ID,
    metadata: [{ id: "m1", key: "team", value: "platform" }],
    customRole: null,
    identity: { name: "ci-deployer", id: IDENTITY_ID, hasDeleteProtection: false, authMethods: ["token-auth"] },
    ...overrides,
  };
}

/** A project as `projects.get` answers it, with one environment per slug. */
export function project(id: string, environmentSlugs: readonly string[]): Project {
  const stamp = "2026-01-01T00:00:00.000Z";
  return {
    id,
    _id: id,
    name: "Payments",
    description: null,
    type: "secret-manager",
    slug: "payments",
    orgId: ORG_ID,
    createdAt: stamp,
    updatedAt: stamp,
    version: 3,
    pitVersionLimit: 10,
    secretSharing: true,
    showSnapshotsLegacy: false,
    environments: environmentSlugs.map((slug) => ({ name: slug.toUpperCase(), slug, id: `${slug}-id` })),
  };
}
