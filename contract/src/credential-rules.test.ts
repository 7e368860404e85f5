import { describe, expect, it } from "vitest";
import {
  arnMatches,
  awsChecks,
  type CredentialCheck,
  firstRefusal,
  kubernetesChecks,
  mappedClaims,
  oidcChecks,
  principalArnOf,
  readAwsCaller,
  readJwt,
  readServiceAccountToken,
  serviceAccountOf,
} from "./credential-rules.ts";

/*
 * The rules an OIDC, Kubernetes or AWS login applies once its peer has vouched for a credential.
 * The service refuses logins with them and the console's credential tester shows them, so this
 * suite runs in the contract's, the service's and the console's test runs alike.
 */

const NOW = Date.UTC(2026, 0, 1, 12); // milliseconds
const SECONDS = NOW / 1000;
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const unsigned = (claims: Record<string, unknown>) => `${part({ alg: "RS256", kid: "k1" })}.${part(claims)}.c2ln`;
const outcomes = (checks: CredentialCheck[]) => Object.fromEntries(checks.map((c) => [c.rule, c.outcome]));

describe("oidcChecks", () => {
  const settings = {
    boundIssuer: "https://issuer.example",
    boundSubject: "repo:acme/*",
    boundAudiences: "keyhold, other-*",
    boundClaims: { "repository.owner": "acme", ref_protected: "true", run_attempt: "1, 2" },
    claimMetadataMapping: { owner: "repository.owner", attempt: "run_attempt" },
  };
  const claims = {
    iss: "https://issuer.example",
    sub: "repo:acme/app",
    aud: ["other-audience"],
    exp: SECONDS + 60,
    iat: SECONDS - 5,
    repository: { owner: "acme" },
    ref_protected: true,
    run_attempt: 2,
  };

  it("passes a token every rule allows, and says what the mapping carries", () => {
    const checks = oidcChecks(settings, claims, NOW);
    expect(checks.map((c) => c.rule)).toEqual([
      "issuer",
      "expiry",
      "subject",
      "audience",
      "claim:repository.owner",
      "claim:ref_protected",
      "claim:run_attempt",
      "mapping:owner",
      "mapping:attempt",
    ]);
    expect(checks.every((c) => c.outcome === "pass")).toBe(true);
    expect(firstRefusal(checks)).toBeUndefined();
    expect(mappedClaims(settings, claims)).toEqual({ owner: "acme", attempt: "2" });
  });

  it.each([
    [{ iss: undefined }, 401, 'Access denied: missing required "iss" claim'],
    [{ iss: "https://elsewhere.example" }, 401, 'Access denied: unexpected "iss" claim value'],
    [{ iat: "yesterday" }, 401, 'Access denied: "iat" claim must be a number'],
    [{ nbf: SECONDS + 1 }, 401, 'Access denied: "nbf" claim timestamp check failed'],
    [{ nbf: "soon" }, 401, 'Access denied: "nbf" claim must be a number'],
    [{ exp: SECONDS }, 401, 'Access denied: "exp" claim timestamp check failed'],
    [{ exp: null }, 401, 'Access denied: "exp" claim must be a number'],
    [{ sub: "repo:other/app" }, 403, "Access denied: OIDC subject not allowed."],
    [{ sub: undefined }, 403, "Access denied: OIDC subject not allowed."],
    [{ aud: "keyhold-dev" }, 401, "Access denied: OIDC audience not allowed."],
    [{ aud: undefined }, 401, "Access denied: OIDC audience not allowed."],
    [{ repository: { owner: "evil" } }, 401, "Access denied: OIDC claim not allowed."],
    [{ repository: "acme" }, 401, "Access denied: token has no repository.owner field"],
    [{ ref_protected: false }, 401, "Access denied: OIDC claim not allowed."],
    [{ run_attempt: 3 }, 401, "Access denied: OIDC claim not allowed."],
    [{ run_attempt: undefined }, 401, "Access denied: token has no run_attempt field"],
  ])("refuses %j with %i %j", (change, statusCode, message) => {
    const checks = oidcChecks(settings, { ...claims, ...change }, NOW);
    expect(firstRefusal(checks)).toEqual({ statusCode, message });
    expect(checks.find((c) => c.outcome === "fail")?.refusal).toEqual({ statusCode, message });
  });

  it("refuses a token that lacks a mapped claim, even when no rule binds it", () => {
    const checks = oidcChecks({ ...settings, claimMetadataMapping: { env: "environment" } }, claims, NOW);
    expect(firstRefusal(checks)).toEqual({
      statusCode: 401,
      message: "Access denied: token has no environment field for the claim metadata mapping",
    });
  });

  it("reports the first failing rule in the login's order, and marks every other one", () => {
    const checks = oidcChecks(settings, { ...claims, sub: "repo:other/app", aud: "nobody" }, NOW);
    expect(outcomes(checks)).toMatchObject({ subject: "fail", audience: "fail", issuer: "pass" });
    expect(firstRefusal(checks)?.message).toBe("Access denied: OIDC subject not allowed.");
  });

  it("skips what is not configured; a token without exp is not refused for it", () => {
    const checks = oidcChecks({ boundIssuer: "https://issuer.example" }, { iss: "https://issuer.example" }, NOW);
    expect(outcomes(checks)).toEqual({ issuer: "pass", expiry: "skip", subject: "skip", audience: "skip" });
  });

  it("requires the bound issuer exactly as stored, even an empty one", () => {
    expect(firstRefusal(oidcChecks({}, { iss: "https://issuer.example" }, NOW))?.message).toBe(
      'Access denied: unexpected "iss" claim value',
    );
    expect(firstRefusal(oidcChecks({}, { iss: "" }, NOW))).toBeUndefined();
  });

  it("reads only a claim the token carries itself, not one every object inherits", () => {
    const checks = oidcChecks({ ...settings, boundClaims: { constructor: "*" } }, claims, NOW);
    expect(firstRefusal(checks)?.message).toBe("Access denied: token has no constructor field");
  });
});

describe("kubernetesChecks", () => {
  const settings = { allowedNamespaces: "payments, billing", allowedNames: "deployer", allowedAudience: "keyhold" };
  const reviewed = { username: "system:serviceaccount:payments:deployer", audiences: ["keyhold"] };

  it("passes an allowed service account", () => {
    const checks = kubernetesChecks(settings, reviewed);
    expect(outcomes(checks)).toEqual({
      "service-account": "pass",
      namespace: "pass",
      name: "pass",
      "k8s-audience": "pass",
    });
  });

  it.each([
    [{ username: "system:serviceaccount:prod:deployer" }, 401, "Access denied: K8s namespace not allowed."],
    [{ username: "system:serviceaccount:payments:other" }, 401, "Access denied: K8s name not allowed."],
    [{ audiences: ["https://kubernetes.default.svc"] }, 401, "Access denied: K8s audience not allowed."],
    [{ username: "jane" }, 400, 'The reviewed token\'s user "jane" is not a service account'],
    [
      { username: "system:serviceaccount:a:b:c" },
      400,
      'The reviewed token\'s user "system:serviceaccount:a:b:c" is not a service account',
    ],
  ])("refuses %j with %i %j", (change, statusCode, message) => {
    expect(firstRefusal(kubernetesChecks(settings, { ...reviewed, ...change }))).toEqual({ statusCode, message });
  });

  it("skips unset lists", () => {
    expect(outcomes(kubernetesChecks({}, reviewed))).toEqual({
      "service-account": "pass",
      namespace: "skip",
      name: "skip",
      "k8s-audience": "skip",
    });
  });

  it("reads a service account's namespace and name", () => {
    expect(serviceAccountOf("system:serviceaccount:ns:name")).toEqual({ namespace: "ns", name: "name" });
    expect(serviceAccountOf("system:serviceaccount:ns")).toBeUndefined();
    expect(serviceAccountOf(undefined)).toBeUndefined();
  });
});

describe("awsChecks", () => {
  const caller = { account: "111122223333", arn: "arn:aws:sts::111122223333:assumed-role/deployer/session-1" };

  it("matches an assumed-role session as its role, with * standing for any characters", () => {
    expect(principalArnOf(caller.arn)).toBe("arn:aws:iam::111122223333:role/deployer");
    expect(principalArnOf("arn:aws:iam::111122223333:user/jane")).toBe("arn:aws:iam::111122223333:user/jane");
    expect(arnMatches("arn:aws:iam::111122223333:role/deployer", "arn:aws:iam::111122223333:role/*")).toBe(true);
    expect(arnMatches("arn:aws:iam::111122223333:role/deployer", "arn:aws:iam::111122223333:role/deploy")).toBe(false);
    expect(arnMatches("arn:aws:iam::111122223333:role/a.b", "arn:aws:iam::111122223333:role/a?b")).toBe(false);
    const checks = awsChecks(
      { allowedAccountIds: "111122223333", allowedPrincipalArns: "arn:aws:iam::111122223333:role/deploy*" },
      caller,
    );
    expect(outcomes(checks)).toEqual({ account: "pass", principal: "pass" });
  });

  it("refuses with the login's words", () => {
    expect(firstRefusal(awsChecks({ allowedAccountIds: "444455556666" }, caller))).toEqual({
      statusCode: 401,
      message: "AWS account ID not allowed.",
    });
    expect(firstRefusal(awsChecks({ allowedPrincipalArns: "arn:aws:iam::111122223333:user/*" }, caller))).toEqual({
      statusCode: 401,
      message: "AWS principal ARN not allowed. [principal-arn=arn:aws:iam::111122223333:role/deployer]",
    });
    expect(outcomes(awsChecks({}, caller))).toEqual({ account: "skip", principal: "skip" });
  });
});

describe("readers of pasted credentials", () => {
  it("reads a JWT without checking it, and nothing else", () => {
    expect(readJwt(unsigned({ sub: "x" }))).toEqual({ header: { alg: "RS256", kid: "k1" }, claims: { sub: "x" } });
    expect(readJwt("not a jwt")).toBeUndefined();
  });

  it("reads a service account token's user and audiences", () => {
    expect(readServiceAccountToken(unsigned({ sub: "system:serviceaccount:ns:sa", aud: "a" }))).toMatchObject({
      username: "system:serviceaccount:ns:sa",
      audiences: ["a"],
    });
    const projected = { "kubernetes.io": { namespace: "ns", serviceaccount: { name: "sa" } }, aud: ["a", "b"] };
    expect(readServiceAccountToken(unsigned(projected))).toMatchObject({
      username: "system:serviceaccount:ns:sa",
      audiences: ["a", "b"],
    });
  });

  it("reads get-caller-identity output or a bare ARN", () => {
    const arn = "arn:aws:sts::111122223333:assumed-role/deployer/s";
    expect(readAwsCaller(JSON.stringify({ UserId: "AROA:s", Account: "111122223333", Arn: arn }))).toEqual({
      account: "111122223333",
      arn,
    });
    expect(readAwsCaller(` ${arn}\n`)).toEqual({ account: "111122223333", arn });
    expect(readAwsCaller("arn:aws:s3:::bucket")).toBeUndefined();
    expect(readAwsCaller("{}")).toBeUndefined();
  });
});
