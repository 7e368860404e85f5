import { endpoints } from "@keyhold/contract";
import {
  awsChecks,
  type CredentialRefusal,
  firstRefusal,
  kubernetesChecks,
  oidcChecks,
  readAwsCaller,
  readJwt,
  readServiceAccountToken,
} from "@keyhold/contract/credential-rules";
import fc from "fast-check";
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type TestService } from "../test/harness.ts";
import { type LoopbackPeer, startLoopbackPeer } from "../test/loopback.ts";
import { GET_CALLER_IDENTITY, signGetCallerIdentity, verifySigV4 } from "../test/sigv4.ts";

/*
 * The credential tester's path (read the credential with the contract's reader, apply the shared
 * rules) against the service's real login and its dry run, over HTTP, with a real peer on
 * loopback, for generated settings and credentials: the tester accepts exactly when the login
 * issues a token, and when it refuses, the login answers with the status and words of the
 * tester's first refusal. The dry run answers the same, against stored and against given settings.
 */

const RUNS = 50;
const dryRunResult = endpoints["oidcAuth.dryRunLogin"].response;

/** One of the values, or (with `absent`) none. */
const oneOf = <T>(...values: T[]) => fc.constantFrom(...values);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const subsetOf = <T>(...values: T[]) => fc.subarray(values);

interface Verdict {
  accepted: boolean;
  refusal?: CredentialRefusal | undefined;
}

let svc: TestService;
beforeAll(async () => {
  svc = await startService({ kind: "sqlite" });
});
afterAll(async () => {
  await svc?.close();
});

async function identityWith(method: "oidcAuth" | "kubernetesAuth" | "awsAuth", name: string, attach: object) {
  const created = await svc.endpoint("identities.create", {
    body: { name, organizationId: svc.info.orgId, role: "member" },
  });
  const identityId = endpoints["identities.create"].response.parse(created.body).identity.id;
  const attached = await svc.endpoint(`${method}.attach`, { params: { identityId }, body: attach });
  expect(attached.status).toBe(200);
  return identityId;
}

/** The login's answer must be the tester's verdict: a token exactly when it accepts, else its first refusal. */
function expectLoginAgrees(login: { status: number; body: unknown }, verdict: Verdict) {
  if (verdict.accepted) {
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.body).toHaveProperty("accessToken");
  } else {
    expect({ statusCode: login.status, message: (login.body as { message?: unknown }).message }).toEqual(
      verdict.refusal,
    );
  }
}

/** The dry run's answer must be the tester's verdict too, with the peer vouching and no token. */
function expectDryRunAgrees(dryRun: { status: number; body: unknown }, verdict: Verdict) {
  expect(dryRun.status, JSON.stringify(dryRun.body)).toBe(200);
  const { dryRun: answer } = dryRunResult.parse(dryRun.body);
  expect(answer.peer.ok).toBe(true);
  expect({ accepted: answer.accepted, refusal: answer.refusal }).toEqual(verdict);
  expect(JSON.stringify(dryRun.body)).not.toContain("accessToken");
}

describe("OIDC: the tester, the login and the dry run agree", () => {
  let issuer: LoopbackPeer;
  const keys = generateKeyPair("RS256", { extractable: true });
  beforeAll(async () => {
    const { publicKey } = await keys;
    const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
    issuer = await startLoopbackPeer((request) => {
      if (request.url === "/.well-known/openid-configuration") {
        return { body: { issuer: issuer.url, jwks_uri: `${issuer.url}/keys` } };
      }
      return request.url === "/keys" ? { body: { keys: [jwk] } } : { status: 404, body: {} };
    });
  });
  afterAll(async () => {
    await issuer?.close();
  });

  const settings = fc.record({
    boundSubject: oneOf("", "repo:acme/*", "repo:acme/app", "repo:*/app"),
    boundAudiences: oneOf("", "keyhold", "keyhold, other-*", "k*"),
    boundClaims: fc
      .record(
        {
          env: oneOf("prod", "prod, staging", "stag*"),
          groups: oneOf("ops", "admins, ops"),
          verified: oneOf("true", "false"),
          attempt: oneOf("1", "1, 2"),
          "org.name": oneOf("acme", "acme-*"),
        },
        { requiredKeys: [] },
      )
      .map((claims) => Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined))),
    claimMetadataMapping: fc
      .record({ team: oneOf("org.name", "team"), environment: oneOf("env") }, { requiredKeys: [] })
      .map((mapping) => Object.fromEntries(Object.entries(mapping).filter(([, v]) => v !== undefined))),
    wrongIssuer: fc.boolean(),
  });
  const token = fc.record({
    iss: oneOf<"ours" | "elsewhere" | "none">("ours", "ours", "ours", "elsewhere", "none"),
    sub: maybe(oneOf("repo:acme/app", "repo:acme/api", "repo:other/app")),
    aud: maybe(fc.oneof(oneOf("keyhold", "other-x", "nobody"), subsetOf("keyhold", "other-x", "kube", "nobody"))),
    exp: maybe(oneOf(-600, -120, 300, 3600)),
    nbf: maybe(oneOf(-60, 600)),
    iat: oneOf<number | string>(-5, -5, -5, "yesterday"),
    env: maybe(oneOf("prod", "staging", "dev")),
    groups: maybe(fc.oneof(subsetOf("ops", "dev", "admins"), oneOf("ops"))),
    verified: maybe(fc.oneof(fc.boolean(), oneOf("true"))),
    attempt: maybe(oneOf<number | string>(1, 2, 3, "2")),
    org: maybe(fc.oneof(fc.record({ name: oneOf("acme", "acme-corp", "evil") }), oneOf("acme"))),
    team: maybe(oneOf("payments")),
  });

  type TokenClaims = typeof token extends fc.Arbitrary<infer T> ? T : never;

  async function sign(claims: TokenClaims) {
    const { privateKey } = await keys;
    const now = Math.floor(Date.now() / 1000);
    const { iss, exp, nbf, iat, ...rest } = claims;
    const payload: Record<string, unknown> = Object.fromEntries(
      Object.entries(rest).filter(([, v]) => v !== undefined),
    );
    if (iss !== "none") payload.iss = iss === "ours" ? issuer.url : "https://elsewhere.example";
    if (exp !== undefined) payload.exp = now + exp;
    if (nbf !== undefined) payload.nbf = now + nbf;
    payload.iat = typeof iat === "number" ? now + iat : iat;
    return new SignJWT(payload).setProtectedHeader({ alg: "RS256", kid: "k1" }).sign(privateKey);
  }

  it(`agrees over ${RUNS} generated settings and tokens`, async () => {
    const stored = await identityWith("oidcAuth", "oidc-agreement", {
      oidcDiscoveryUrl: issuer.url,
      boundIssuer: issuer.url,
    });
    // Another identity whose stored settings the dry run's given settings replace.
    const other = await identityWith("oidcAuth", "oidc-agreement-other", {
      oidcDiscoveryUrl: issuer.url,
      boundIssuer: "https://unused.example",
      boundSubject: "nobody",
      boundClaims: { never: "matched" },
    });
    await fc.assert(
      fc.asyncProperty(settings, token, async (generated, claims) => {
        const { wrongIssuer, ...rules } = generated;
        const form = { ...rules, boundIssuer: wrongIssuer ? "https://other-issuer.example" : issuer.url };
        const updated = await svc.endpoint("oidcAuth.update", { params: { identityId: stored }, body: form });
        expect(updated.status).toBe(200);
        const jwt = await sign(claims);

        // The tester: the token read in the browser's way, the shared rules against the form.
        const read = readJwt(jwt);
        expect(read).toBeDefined();
        const checks = oidcChecks(form, read?.claims ?? {}, Date.now());
        const verdict = { accepted: firstRefusal(checks) === undefined, refusal: firstRefusal(checks) };

        const login = await svc.endpoint("oidcAuth.login", { body: { identityId: stored, jwt } }, { token: null });
        expectLoginAgrees(login, verdict);
        const params = { identityId: stored };
        expectDryRunAgrees(
          await svc.endpoint("oidcAuth.dryRunLogin", { params, body: { settings: {}, jwt } }),
          verdict,
        );
        const overridden = { identityId: other };
        expectDryRunAgrees(
          await svc.endpoint("oidcAuth.dryRunLogin", { params: overridden, body: { settings: form, jwt } }),
          verdict,
        );
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});

describe("Kubernetes: the tester, the login and the dry run agree", () => {
  let cluster: LoopbackPeer;
  beforeAll(async () => {
    // The cluster vouches for each token it is shown: its user is the token's subject, its audiences the token's.
    cluster = await startLoopbackPeer((request) => {
      const claims = decodeJwt((JSON.parse(request.body) as { spec: { token: string } }).spec.token);
      const audiences = Array.isArray(claims.aud) ? claims.aud : claims.aud ? [claims.aud] : [];
      return { status: 201, body: { status: { authenticated: true, user: { username: claims.sub }, audiences } } };
    });
  });
  afterAll(async () => {
    await cluster?.close();
  });

  const settings = fc.record({
    allowedNamespaces: oneOf("", "payments", "payments, platform", "staging"),
    allowedNames: oneOf("", "deployer", "deployer, ci"),
    allowedAudience: oneOf("", "keyhold", "other"),
  });
  const account = fc.oneof(
    fc
      .tuple(oneOf("payments", "platform", "staging"), oneOf("deployer", "ci", "intruder"))
      .map(([namespace, name]) => `system:serviceaccount:${namespace}:${name}`),
    oneOf("jane@example.com", "system:serviceaccount:a:b:c", "system:serviceaccount:payments"),
  );
  const audiences = subsetOf("keyhold", "https://kubernetes.default.svc", "other");
  const serviceAccountToken = (sub: string, aud: string[]) => {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    return `${part({ alg: "RS256", kid: "cluster" })}.${part({ iss: "kubernetes/serviceaccount", sub, aud })}.c2ln`;
  };

  it(`agrees over ${RUNS} generated settings and service accounts`, async () => {
    const base = {
      kubernetesHost: cluster.url,
      tokenReviewerJwt: "reviewer-token",
      allowedNamespaces: "",
      allowedNames: "",
      allowedAudience: "",
    };
    const stored = await identityWith("kubernetesAuth", "k8s-agreement", base);
    const other = await identityWith("kubernetesAuth", "k8s-agreement-other", {
      ...base,
      allowedNamespaces: "nowhere",
      allowedNames: "nobody",
    });
    await fc.assert(
      fc.asyncProperty(settings, account, audiences, async (form, sub, aud) => {
        const updated = await svc.endpoint("kubernetesAuth.update", { params: { identityId: stored }, body: form });
        expect(updated.status).toBe(200);
        const jwt = serviceAccountToken(sub, aud);

        const read = readServiceAccountToken(jwt);
        expect(read).toBeDefined();
        const checks = kubernetesChecks(form, read ?? { audiences: [] });
        const verdict = { accepted: firstRefusal(checks) === undefined, refusal: firstRefusal(checks) };

        expectLoginAgrees(
          await svc.endpoint("kubernetesAuth.login", { body: { identityId: stored, jwt } }, { token: null }),
          verdict,
        );
        const params = { identityId: stored };
        expectDryRunAgrees(
          await svc.endpoint("kubernetesAuth.dryRunLogin", { params, body: { settings: {}, jwt } }),
          verdict,
        );
        expectDryRunAgrees(
          await svc.endpoint("kubernetesAuth.dryRunLogin", {
            params: { identityId: other },
            body: { settings: form, jwt },
          }),
          verdict,
        );
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});

describe("AWS: the tester, the login and the dry run agree", () => {
  /** The callers the stand-in STS knows, by access key id. */
  const callers = [
    ["111122223333", "arn:aws:sts::111122223333:assumed-role/deployer/i-0abc"],
    ["111122223333", "arn:aws:sts::111122223333:assumed-role/deploy-bot/session.with.dots"],
    ["111122223333", "arn:aws:iam::111122223333:user/jane"],
    ["111122223333", "arn:aws:iam::111122223333:role/deployer"],
    ["444455556666", "arn:aws:iam::444455556666:role/deployer"],
    ["444455556666", "arn:aws:sts::444455556666:assumed-role/admin/x"],
    ["777788889999", "arn:aws-cn:iam::777788889999:user/path/to/bob"],
  ] as const;
  const keyOf = (index: number) => `AKIACALLER${index}`;
  let sts: LoopbackPeer;
  beforeAll(async () => {
    sts = await startLoopbackPeer((request) => {
      const key = verifySigV4(request, (id) => (id.startsWith("AKIACALLER") ? `secret-${id}` : undefined));
      const caller = key ? callers[Number(key.slice("AKIACALLER".length))] : undefined;
      if (!caller || request.body !== GET_CALLER_IDENTITY) return { status: 403, body: "<Error/>" };
      return {
        body: `<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>${caller[1]}</Arn><UserId>AIDA</UserId><Account>${caller[0]}</Account></GetCallerIdentityResult></GetCallerIdentityResponse>`,
      };
    });
  });
  afterAll(async () => {
    await sts?.close();
  });

  const settings = fc.record({
    allowedAccountIds: oneOf("", "111122223333", "111122223333, 444455556666", "444455556666"),
    allowedPrincipalArns: oneOf(
      "",
      "arn:aws:iam::111122223333:role/deployer",
      "arn:aws:iam::*:role/deploy*",
      "arn:aws:iam::111122223333:user/*",
      "arn:aws:sts::111122223333:assumed-role/deployer/*",
      "arn:aws:iam::111122223333:role/deployer, arn:aws:iam::444455556666:*",
      "arn:aws-cn:iam::777788889999:user/path/*",
    ),
  });
  const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

  it(`agrees over ${RUNS} generated settings and callers`, async () => {
    const stored = await identityWith("awsAuth", "aws-agreement", { stsEndpoint: `${sts.url}/` });
    const other = await identityWith("awsAuth", "aws-agreement-other", {
      stsEndpoint: `${sts.url}/`,
      allowedAccountIds: "000000000000",
    });
    await fc.assert(
      fc.asyncProperty(settings, fc.nat({ max: callers.length - 1 }), async (form, index) => {
        const updated = await svc.endpoint("awsAuth.update", { params: { identityId: stored }, body: form });
        expect(updated.status).toBe(200);
        const [account, arn] = callers[index] ?? callers[0];
        const signed = {
          iamHttpRequestMethod: "POST",
          iamRequestBody: b64(GET_CALLER_IDENTITY),
          iamRequestHeaders: b64(JSON.stringify(signGetCallerIdentity(keyOf(index), `secret-${keyOf(index)}`))),
        };

        // The tester reads what `aws sts get-caller-identity` prints for the same caller.
        const caller = readAwsCaller(JSON.stringify({ UserId: "AIDA", Account: account, Arn: arn }));
        expect(caller).toBeDefined();
        const checks = awsChecks(form, caller ?? { account: "", arn: "" });
        const verdict = { accepted: firstRefusal(checks) === undefined, refusal: firstRefusal(checks) };

        expectLoginAgrees(
          await svc.endpoint("awsAuth.login", { body: { identityId: stored, ...signed } }, { token: null }),
          verdict,
        );
        const params = { identityId: stored };
        expectDryRunAgrees(
          await svc.endpoint("awsAuth.dryRunLogin", { params, body: { settings: {}, ...signed } }),
          verdict,
        );
        expectDryRunAgrees(
          await svc.endpoint("awsAuth.dryRunLogin", {
            params: { identityId: other },
            body: { settings: form, ...signed },
          }),
          verdict,
        );
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});
