import { DEFAULT_TOKEN_TTL, MAX_WHOLE_NUMBER } from "@keyhold/contract";
import { describe, expect, it } from "vitest";
import type { AuthMethodConfig } from "./descriptor";
import { fieldHelp, fieldsOf } from "./descriptor";
import { authMethods, kubernetesAuth, oidcAuth, tokenAuth, universalAuth } from "./descriptors";
import {
  ACKNOWLEDGED,
  acknowledgementOf,
  contractLimits,
  formIssues,
  formSchema,
  parsePairs,
  toFormValues,
  ttlAboveMax,
  unrestrictedFields,
} from "./form";

const base = {
  id: "3f0c1f36-8a4e-4a8e-9d7e-9a4b1f0f3c11",
  identityId: "6b8a8d43-5c9f-4d59-9d8b-0c1a2b3c4d5e",
  accessTokenTTL: 3_600,
  accessTokenMaxTTL: 86_400,
  accessTokenNumUsesLimit: 0,
  accessTokenTrustedIps: [
    { ipAddress: "0.0.0.0", prefix: 0, type: "ipv4" },
    { ipAddress: "::", prefix: 0, type: "ipv6" },
  ],
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};

const k8sConfig: AuthMethodConfig = {
  record: {
    ...base,
    kubernetesHost: "https://k8s.example.com",
    caCert: "",
    tokenReviewMode: "api",
    allowedNamespaces: "default",
    allowedNames: "",
    allowedAudience: "",
  },
  secretsSet: ["tokenReviewerJwt"],
};

describe("the five descriptors", () => {
  it("name five distinct methods, each with its own contract endpoints", () => {
    expect(authMethods.map((m) => m.name)).toEqual([
      "token-auth",
      "universal-auth",
      "kubernetes-auth",
      "oidc-auth",
      "aws-auth",
    ]);
    for (const method of authMethods) {
      expect(method.endpoints.attach.id).toBe(`${method.key}.attach`);
      expect(method.endpoints.revoke.method).toBe("DELETE");
      expect(method.endpoints.get.path).toBe(`/api/v1/auth/${method.name}/identities/{identityId}`);
    }
  });

  it("only render fields the contract's attach and update bodies know", () => {
    for (const method of authMethods) {
      const attach = Object.keys((method.attachBody as unknown as { shape: object }).shape);
      const update = Object.keys((method.updateBody as unknown as { shape: object }).shape);
      for (const field of fieldsOf(method)) {
        expect(attach, `${method.name} attach`).toContain(field.name);
        expect(update, `${method.name} update`).toContain(field.name);
      }
    }
  });
});

describe("toFormValues", () => {
  it("starts an attach form from the contract's defaults", () => {
    const values = toFormValues(universalAuth);
    expect(values).toMatchObject({
      accessTokenTTL: "30d",
      accessTokenMaxTTL: "30d",
      accessTokenNumUsesLimit: "0",
      accessTokenTrustedIps: [{ ipAddress: "0.0.0.0/0" }, { ipAddress: "::/0" }],
      lockoutEnabled: true,
      lockoutThreshold: "3",
      lockoutDurationSeconds: "5m",
      lockoutCounterResetSeconds: "30",
    });
  });

  it("fills an edit form from the record, never from a write-only value", () => {
    const values = toFormValues(kubernetesAuth, {
      ...k8sConfig,
      record: { ...k8sConfig.record, tokenReviewerJwt: "should-not-appear" },
    });
    expect(values).toMatchObject({
      kubernetesHost: "https://k8s.example.com",
      accessTokenTTL: "1h",
      accessTokenMaxTTL: "1d",
      accessTokenTrustedIps: [{ ipAddress: "0.0.0.0/0" }, { ipAddress: "::/0" }],
      tokenReviewerJwt: { value: "", clear: false },
    });
  });
});

describe("formSchema on attach", () => {
  it("sends seconds and normalised trusted IPs", () => {
    const values = {
      ...toFormValues(tokenAuth),
      accessTokenTTL: "12h",
      accessTokenTrustedIps: [{ ipAddress: " 2001:DB8::1 " }],
    };
    expect(formSchema(tokenAuth, { mode: "attach" }).parse(values)).toEqual({
      accessTokenTTL: 43_200,
      accessTokenMaxTTL: DEFAULT_TOKEN_TTL,
      accessTokenNumUsesLimit: 0,
      accessTokenTrustedIps: [{ ipAddress: "2001:db8::1" }],
    });
  });

  it("puts each problem on its field, the contract's rules included", () => {
    const values = {
      ...toFormValues(tokenAuth),
      accessTokenTTL: "60d",
      accessTokenTrustedIps: [{ ipAddress: "10.0.0.1" }, { ipAddress: "10.0.0.1/32x" }, { ipAddress: "10.0.0.1" }],
    };
    const schema = formSchema(tokenAuth, { mode: "attach" });
    const paths = schema.safeParse(values).error?.issues.map((i) => i.path.join("."));
    expect(paths).toEqual(["accessTokenTrustedIps.1.ipAddress", "accessTokenTrustedIps.2.ipAddress"]);
    const fixed = { ...values, accessTokenTrustedIps: [{ ipAddress: "10.0.0.1" }] };
    expect(schema.safeParse(fixed).error?.issues).toMatchObject([
      { path: ["accessTokenTTL"], message: "The access token TTL cannot exceed the access token max TTL" },
    ]);
  });

  it("requires what the method cannot work without", () => {
    const issues = formSchema(oidcAuth, { mode: "attach" }).safeParse(toFormValues(oidcAuth)).error?.issues;
    expect(issues?.map((i) => [i.path.join("."), i.message])).toEqual([
      ["oidcDiscoveryUrl", "Discovery URL is required"],
      ["boundIssuer", "Issuer is required"],
    ]);
  });

  it("reads required claims as key=value lines", () => {
    expect(parsePairs("repository = acme/api\n\nref=main")).toEqual({
      ok: true,
      value: { repository: "acme/api", ref: "main" },
    });
    expect(parsePairs("ok=1\nnot a pair")).toEqual({ ok: false, line: 2 });
  });
});

describe("formSchema on update", () => {
  const initial = toFormValues(kubernetesAuth, k8sConfig);
  const schema = formSchema(kubernetesAuth, { mode: "update", initial });

  it("sends only what changed, and nothing for an untouched secret", () => {
    expect(schema.parse({ ...initial, allowedNames: "deployer", accessTokenTTL: "2h" })).toEqual({
      allowedNames: "deployer",
      accessTokenTTL: 7_200,
    });
    expect(schema.parse(initial)).toEqual({});
  });

  it("does not count a rewrite of the same value as a change", () => {
    expect(
      schema.parse({
        ...initial,
        accessTokenTTL: "3600",
        accessTokenTrustedIps: [{ ipAddress: "0.0.0.0/0" }, { ipAddress: "0:0::/0" }],
      }),
    ).toEqual({});
  });

  it("replaces the reviewer JWT when one is typed, and clears it with null", () => {
    expect(schema.parse({ ...initial, tokenReviewerJwt: { value: "new.jwt.value", clear: false } })).toEqual({
      tokenReviewerJwt: "new.jwt.value",
    });
    expect(schema.parse({ ...initial, tokenReviewerJwt: { value: "", clear: true } })).toEqual({
      tokenReviewerJwt: null,
    });
  });
});

describe("the contract's ranges in the form", () => {
  it("reads each number's and duration's range off the attach schema", () => {
    const limits = contractLimits(universalAuth);
    expect(limits.lockoutThreshold).toEqual({ min: 1, max: 30 });
    expect(limits.lockoutDurationSeconds).toEqual({ min: 30, max: 86_400 });
    expect(limits.accessTokenTTL).toEqual({ min: 0, max: 315_360_000 });
    expect(limits.accessTokenNumUsesLimit).toEqual({ min: 0, max: MAX_WHOLE_NUMBER });
  });

  it("refuses what the server would, in words", () => {
    const values = {
      ...toFormValues(universalAuth),
      lockoutThreshold: "50",
      lockoutDurationSeconds: "2d",
      accessTokenMaxTTL: "4000d",
      accessTokenNumUsesLimit: "2147483648",
    };
    const issues = formSchema(universalAuth, { mode: "attach" }).safeParse(values).error?.issues;
    expect(issues?.map((i) => [i.path.join("."), i.message])).toEqual([
      ["lockoutThreshold", "From 1 to 30"],
      ["lockoutDurationSeconds", "From 30 seconds to 1 day"],
      ["accessTokenMaxTTL", "At most 3650 days"],
      ["accessTokenNumUsesLimit", "At most 2147483647"],
    ]);
  });
});

describe("a TTL within its max", () => {
  const ttl = fieldsOf(tokenAuth).find((field) => field.name === "accessTokenTTL");
  if (!ttl) throw new Error("no TTL field");
  const values = (ttlText: string, max: string) => ({
    ...toFormValues(tokenAuth),
    accessTokenTTL: ttlText,
    accessTokenMaxTTL: max,
  });

  it("is checked against the max as typed, on attach and on update alike", () => {
    expect(ttlAboveMax(tokenAuth, ttl, values("7200", "1h"), "update")).toBe(
      "Cannot exceed the access token max TTL (1 hour)",
    );
    expect(ttlAboveMax(tokenAuth, ttl, values("2h", "3600"), "attach")).toBeDefined();
    expect(ttlAboveMax(tokenAuth, ttl, values("1h", "1h"), "update")).toBeUndefined();
    expect(ttlAboveMax(tokenAuth, ttl, values("nonsense", "1h"), "update")).toBeUndefined();
  });

  it("follows the server on a max of 0: no limit on an update, none allowed on attach", () => {
    expect(ttlAboveMax(tokenAuth, ttl, values("2h", "0"), "update")).toBeUndefined();
    expect(ttlAboveMax(tokenAuth, ttl, values("2h", "0"), "attach")).toBe(
      "Must be 0 while the access token max TTL is 0",
    );
  });

  it("is one of the form's issues, on the TTL field, when only the TTL changed", () => {
    const initial = toFormValues(tokenAuth, {
      record: { ...base, accessTokenTTL: 3_600, accessTokenMaxTTL: 3_600, accessTokenTrustedIps: [] },
      secretsSet: [],
    });
    const issues = formIssues(
      tokenAuth,
      { ...initial, accessTokenTrustedIps: [{ ipAddress: "10.0.0.0/8" }], accessTokenTTL: "7200" },
      "update",
    );
    expect(issues).toEqual([{ path: "accessTokenTTL", message: "Cannot exceed the access token max TTL (1 hour)" }]);
  });
});

describe("fields that restrict nothing", () => {
  it("are found in every method: empty lists and claims, and trusted IPs open to a family", () => {
    const aws = authMethods.find((method) => method.key === "awsAuth");
    if (!aws) throw new Error("no AWS auth");
    const open = (method: typeof aws, values = toFormValues(method)) =>
      unrestrictedFields(method, values).map((entry) => [entry.field.name, entry.admits]);
    expect(open(aws)).toEqual([
      ["allowedPrincipalArns", "any IAM principal"],
      ["allowedAccountIds", "any AWS account"],
      ["accessTokenTrustedIps", "any address"],
    ]);
    expect(open(kubernetesAuth).map(([name]) => name)).toEqual([
      "allowedNamespaces",
      "allowedNames",
      "allowedAudience",
      "accessTokenTrustedIps",
    ]);
    expect(open(oidcAuth).map(([name]) => name)).toEqual([
      "boundAudiences",
      "boundSubject",
      "boundClaims",
      "accessTokenTrustedIps",
    ]);
    expect(open(universalAuth).map(([name]) => name)).toEqual(["clientSecretTrustedIps", "accessTokenTrustedIps"]);
    const restricted = {
      ...toFormValues(aws),
      allowedPrincipalArns: "arn:aws:iam::123456789012:role/deployer",
      allowedAccountIds: " , ",
      accessTokenTrustedIps: [{ ipAddress: "0.0.0.0/0" }, { ipAddress: "10.0.0.0/8" }],
    };
    expect(open(aws, restricted)).toEqual([
      ["allowedAccountIds", "any AWS account"],
      ["accessTokenTrustedIps", "any IPv4 address"],
    ]);
  });

  it("say so in their help text", () => {
    for (const method of authMethods) {
      for (const field of fieldsOf(method).filter((f) => f.unrestricted)) {
        expect(fieldHelp(field), `${method.name} ${field.name}`).toContain(`admits ${field.unrestricted}.`);
      }
    }
    const namespaces = fieldsOf(kubernetesAuth).find((field) => field.name === "allowedNamespaces");
    expect(namespaces && fieldHelp(namespaces)).toBe(
      "Comma-separated. Empty admits any namespace. For example: default, ci",
    );
  });

  it("hold the save until the same set of them is acknowledged", () => {
    const values = toFormValues(universalAuth);
    const open = unrestrictedFields(universalAuth, values);
    const ask = { path: ACKNOWLEDGED, message: "Confirm that you mean to admit this before saving" };
    expect(formIssues(universalAuth, values, "attach")).toEqual([ask]);
    const acknowledged = { ...values, [ACKNOWLEDGED]: acknowledgementOf(open) };
    expect(formIssues(universalAuth, acknowledged, "attach")).toEqual([]);
    // Restricting one list keeps the acknowledgement of the other only if it is given again.
    const narrowed = { ...acknowledged, clientSecretTrustedIps: [{ ipAddress: "10.0.0.0/8" }] };
    expect(formIssues(universalAuth, narrowed, "attach")).toEqual([ask]);
    const closed = { ...narrowed, accessTokenTrustedIps: [{ ipAddress: "10.0.0.0/8" }] };
    expect(formIssues(universalAuth, closed, "attach")).toEqual([]);
  });

  it("never send the acknowledgement", () => {
    const values = { ...toFormValues(tokenAuth), [ACKNOWLEDGED]: "accessTokenTrustedIps" };
    expect(formSchema(tokenAuth, { mode: "attach" }).parse(values)).not.toHaveProperty(ACKNOWLEDGED);
  });
});
