import { describe, expect, it } from "vitest";
import { dryRunCredential, testCredential } from "./credential-tester";

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const jwt = (claims: Record<string, unknown>) => `${part({ alg: "RS256", kid: "k1" })}.${part(claims)}.c2ln`;
const NOW = Date.parse("2026-01-01T00:00:00Z");
const soon = NOW / 1000 + 300;

describe("testCredential", () => {
  it("reads a JWT's claims and marks the bound claim it lacks, with the login's words", () => {
    const reading = testCredential(
      "oidc",
      jwt({ iss: "https://ci.example", sub: "repo:acme/api", aud: "keyhold", exp: soon, repository: "acme/api" }),
      { boundIssuer: "https://ci.example", boundClaims: { repository: "acme/*", ref: "refs/heads/main" } },
      NOW,
    );
    if (!reading.ok) throw new Error(reading.message);
    expect(reading.decoded.expiresAt).toBe(soon * 1000);
    expect(reading.decoded.parts.map((p) => p.title)).toEqual(["Header", "Claims"]);
    const outcomes = Object.fromEntries(reading.decoded.checks.map((c) => [c.rule, c.outcome]));
    expect(outcomes).toEqual({
      issuer: "pass",
      expiry: "pass",
      subject: "skip",
      audience: "skip",
      "claim:repository": "pass",
      "claim:ref": "fail",
    });
    expect(reading.decoded.checks.find((c) => c.outcome === "fail")?.refusal).toEqual({
      statusCode: 401,
      message: "Access denied: token has no ref field",
    });
  });

  it("says what is wrong with a paste that is not a JWT", () => {
    expect(testCredential("oidc", "not a token", {}, NOW)).toEqual({
      ok: false,
      message: "This is not a JWT: expected three base64url parts separated by dots.",
    });
  });

  it("reads a projected service account token's namespace, name and audiences", () => {
    const reading = testCredential(
      "kubernetes",
      jwt({ aud: ["vault"], "kubernetes.io": { namespace: "ci", serviceaccount: { name: "deployer" } } }),
      { allowedNamespaces: "default, prod" },
      NOW,
    );
    if (!reading.ok) throw new Error(reading.message);
    expect(reading.decoded.facts).toEqual([
      { label: "Namespace", value: "ci" },
      { label: "Name", value: "deployer" },
      { label: "Audiences", value: "vault" },
    ]);
    expect(reading.decoded.checks.find((c) => c.outcome === "fail")?.rule).toBe("namespace");
  });

  it("normalises an assumed-role session to its role and shows both", () => {
    const reading = testCredential(
      "aws",
      JSON.stringify({
        UserId: "AROA:ci",
        Account: "123456789012",
        Arn: "arn:aws:sts::123456789012:assumed-role/deployer/ci-42",
      }),
      { allowedPrincipalArns: "arn:aws:iam::123456789012:role/deployer" },
      NOW,
    );
    if (!reading.ok) throw new Error(reading.message);
    expect(reading.decoded.facts).toEqual([
      { label: "Account", value: "123456789012" },
      { label: "Principal", value: "arn:aws:iam::123456789012:role/deployer" },
      { label: "Assumed-role session", value: "arn:aws:sts::123456789012:assumed-role/deployer/ci-42" },
    ]);
    expect(reading.decoded.checks.map((c) => c.outcome)).toEqual(["skip", "pass"]);
  });
});

describe("dryRunCredential", () => {
  it("sends a pasted token as the login's jwt", () => {
    expect(dryRunCredential("oidc", "  a.b.c\n")).toEqual({ ok: true, credential: { jwt: "a.b.c" } });
  });

  it("takes AWS's signed request from a login body, naming what is missing", () => {
    expect(dryRunCredential("aws", '{"iamHttpRequestMethod":"POST","iamRequestBody":"QWN0aW9u"}')).toEqual({
      ok: false,
      message: "The login body has no iamRequestHeaders",
    });
    expect(dryRunCredential("aws", "arn:aws:iam::123456789012:role/x")).toEqual({
      ok: false,
      message: "Paste the login body as JSON",
    });
    expect(
      dryRunCredential(
        "aws",
        '{"iamHttpRequestMethod":"POST","iamRequestBody":"QWN0aW9u","iamRequestHeaders":"e30=","identityId":"x"}',
      ),
    ).toEqual({
      ok: true,
      credential: { iamHttpRequestMethod: "POST", iamRequestBody: "QWN0aW9u", iamRequestHeaders: "e30=" },
    });
  });
});
