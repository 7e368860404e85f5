import { describe, expect, it } from "vitest";
import { kubernetesAuth, universalAuth } from "./descriptors";
import { summaryValue } from "./summary";

const record = {
  accessTokenTTL: 2_592_000,
  accessTokenNumUsesLimit: 0,
  accessTokenTrustedIps: [
    { ipAddress: "0.0.0.0", prefix: 0 },
    { ipAddress: "::", prefix: 0 },
  ],
  clientSecretTrustedIps: [{ ipAddress: "10.0.0.0", prefix: 8 }, { ipAddress: "10.1.2.3" }],
  lockoutEnabled: true,
  allowedNamespaces: "",
  clientId: "c0ffee00-0000-4000-8000-000000000000",
};

const value = (field: string, secretsSet: string[] = []) =>
  summaryValue(
    field === "tokenReviewerJwt" || field === "allowedNamespaces" ? kubernetesAuth : universalAuth,
    { label: field, field },
    { record, secretsSet },
  );

describe("summaryValue", () => {
  it("writes each kind of setting for people", () => {
    expect(value("accessTokenTTL")).toBe("30 days");
    expect(value("accessTokenNumUsesLimit")).toBe("Unlimited");
    expect(value("accessTokenTrustedIps")).toBe("Any address");
    expect(value("clientSecretTrustedIps")).toBe("10.0.0.0/8, 10.1.2.3");
    expect(value("lockoutEnabled")).toBe("On");
    expect(value("allowedNamespaces")).toBe("Any namespace");
    expect(value("clientId")).toBe("c0ffee00-0000-4000-8000-000000000000");
  });

  it("says whether a write-only value is set, never what it is", () => {
    expect(value("tokenReviewerJwt", ["tokenReviewerJwt"])).toBe("Set (never shown)");
    expect(value("tokenReviewerJwt")).toBe("Not set");
  });
});
