import { describe, expect, it } from "vitest";
import { authMethods, awsAuth, kubernetesAuth, oidcAuth, universalAuth } from "./descriptors";
import { summaryItem, summaryValue } from "./summary";

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

describe("the summary of each method", () => {
  it("shows where universal auth accepts a sign-in and where it accepts a token's use", () => {
    const labels = Object.fromEntries(universalAuth.summary.map((spec) => [spec.field, spec.label]));
    expect(labels.clientSecretTrustedIps).toBe("Sign-ins accepted from");
    expect(labels.accessTokenTrustedIps).toBe("Token use accepted from");
    expect(value("clientSecretTrustedIps")).toBe("10.0.0.0/8, 10.1.2.3");
  });

  it("shows every setting that decides who may sign in, with every method's token addresses", () => {
    for (const method of authMethods) {
      const shown = method.summary.map((spec) => spec.field);
      expect(shown, method.name).toContain("accessTokenTrustedIps");
      for (const field of method.sections.flatMap((section) => section.fields)) {
        if (field.unrestricted) expect(shown, `${method.name} ${field.name}`).toContain(field.name);
      }
    }
  });

  it("marks a setting that restricts nothing, and says whom it admits", () => {
    const config = {
      record: { ...record, allowedAccountIds: "", allowedPrincipalArns: "arn:aws:iam::1:role/x" },
      secretsSet: [],
    };
    const item = (field: string) => summaryItem(awsAuth, { label: field, field }, config);
    expect(item("allowedAccountIds")).toEqual({ text: "Any AWS account", unrestricted: true });
    expect(item("allowedPrincipalArns")).toEqual({ text: "arn:aws:iam::1:role/x", unrestricted: false });
    expect(item("accessTokenTrustedIps")).toEqual({ text: "Any address", unrestricted: true });
    const v4 = {
      ...config,
      record: { ...config.record, accessTokenTrustedIps: [{ ipAddress: "0.0.0.0", prefix: 0 }] },
    };
    expect(summaryItem(awsAuth, { label: "ips", field: "accessTokenTrustedIps" }, v4)).toEqual({
      text: "Any IPv4 address",
      unrestricted: true,
    });
    const claims = summaryItem(oidcAuth, { label: "claims", field: "boundClaims" }, { record: {}, secretsSet: [] });
    expect(claims).toEqual({ text: "Any claims", unrestricted: true });
  });
});
