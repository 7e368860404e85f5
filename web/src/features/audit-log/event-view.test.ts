import type { AuditLog } from "@keyhold/contract";
import { describe, expect, it } from "vitest";
import { actorOf } from "./event-view";

function event(actorMetadata: Record<string, unknown>): AuditLog {
  return {
    id: "e1",
    ipAddress: null,
    userAgent: null,
    userAgentType: null,
    expiresAt: "2027-01-01T00:00:00.000Z",
    createdAt: "2026-11-28T10:00:00.000Z",
    updatedAt: "2026-11-28T10:00:00.000Z",
    orgId: "org",
    projectId: null,
    projectName: null,
    event: { type: "create-workspace", metadata: {} },
    actor: { type: "identity", metadata: actorMetadata },
  };
}

describe("actorOf", () => {
  it("names the person behind a single sign-on identity by the e-mail its OIDC login mapped into the token", () => {
    const actor = actorOf(
      event({
        identityId: "id-1",
        name: "platform-people",
        authMethod: "oidc-auth",
        oidc: { claims: { email: "eve@acme.test", name: "Eve Example" } },
      }),
    );
    expect(actor).toMatchObject({
      id: "id-1",
      name: "platform-people",
      email: "eve@acme.test",
      authMethod: "oidc-auth",
    });
    expect(actor.claims).toEqual([
      ["email", "eve@acme.test"],
      ["name", "Eve Example"],
    ]);
  });

  it("has no e-mail for an identity signed in without one", () => {
    expect(actorOf(event({ identityId: "id-1", name: "ci", authMethod: "universal-auth" })).email).toBeUndefined();
  });
});
