import { describe, expect, it } from "vitest";
import { authMethodEventTypes } from "./event-types";

describe("an auth method's audit event types", () => {
  it("are its attach, change, read and revoke, its sign-ins and its credentials'", () => {
    expect(authMethodEventTypes("universal-auth")).toEqual(
      expect.arrayContaining([
        "add-identity-universal-auth",
        "update-identity-universal-auth",
        "revoke-identity-universal-auth",
        "login-identity-universal-auth",
        "login-identity-universal-auth-failed",
        "create-identity-universal-auth-client-secret",
      ]),
    );
    expect(authMethodEventTypes("token-auth")).toContain("create-token-identity-token-auth");
    expect(authMethodEventTypes("oidc-auth").every((type) => type.includes("oidc-auth"))).toBe(true);
  });
});
