import { ErrorBodySchema, endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { type LoopbackPeer, startLoopbackPeer, unusedLoopbackUrl } from "../test/loopback.ts";
import { recordedBody, shapeOf } from "../test/shapes.ts";

const issued = endpoints["kubernetesAuth.login"].response;
const REVIEWER_JWT = "reviewer-service-account-token";

/** What the stand-in cluster says about each service account token it is asked to review. */
const reviews: Record<string, { status: number; body: unknown }> = {
  "good-token": {
    status: 201,
    body: {
      apiVersion: "authentication.k8s.io/v1",
      kind: "TokenReview",
      status: {
        authenticated: true,
        user: { username: "system:serviceaccount:payments:deployer", uid: "5b3c" },
        audiences: ["https://kubernetes.default.svc", "keyhold"],
      },
    },
  },
  "other-namespace": {
    status: 201,
    body: { status: { authenticated: true, user: { username: "system:serviceaccount:staging:deployer" } } },
  },
  "other-name": {
    status: 201,
    body: { status: { authenticated: true, user: { username: "system:serviceaccount:payments:intruder" } } },
  },
  "no-audience": {
    status: 201,
    body: { status: { authenticated: true, user: { username: "system:serviceaccount:payments:deployer" } } },
  },
  "not-a-service-account": {
    status: 201,
    body: { status: { authenticated: true, user: { username: "jane@example.com" } } },
  },
  "not-authenticated": { status: 201, body: { status: { authenticated: false } } },
  "review-error": { status: 201, body: { status: { authenticated: false, error: "token has expired" } } },
};

describeEachDatabase("Kubernetes auth login against a TokenReview API on loopback", (kind) => {
  let svc: TestService;
  let cluster: LoopbackPeer;
  beforeAll(async () => {
    svc = await startService({ kind });
    cluster = await startLoopbackPeer((request) => {
      if (request.headers.authorization === "Bearer unprivileged-reviewer") {
        return { status: 403, body: { kind: "Status", message: "tokenreviews.authentication.k8s.io is forbidden" } };
      }
      const token = (JSON.parse(request.body) as { spec: { token: string } }).spec.token;
      return reviews[token] ?? { status: 201, body: { status: { authenticated: false } } };
    });
  });
  afterAll(async () => {
    await cluster?.close();
    await svc?.close();
  });

  /** An identity with org role member (its tokens may read identities) and Kubernetes auth attached. */
  async function k8sIdentity(name: string, attach: Record<string, unknown> = {}) {
    const res = await svc.endpoint("identities.create", {
      body: { name, organizationId: svc.info.orgId, role: "member" },
    });
    const identityId = endpoints["identities.create"].response.parse(res.body).identity.id;
    const attached = await svc.endpoint("kubernetesAuth.attach", {
      params: { identityId },
      body: {
        kubernetesHost: cluster.url,
        tokenReviewerJwt: REVIEWER_JWT,
        allowedNamespaces: "payments, platform",
        allowedNames: "deployer",
        allowedAudience: "keyhold",
        accessTokenTTL: 1200,
        accessTokenMaxTTL: 7200,
        ...attach,
      },
    });
    expect(attached.status).toBe(200);
    return identityId;
  }

  const login = (identityId: string, jwt: string) =>
    svc.endpoint("kubernetesAuth.login", { body: { identityId, jwt } }, { token: null });

  describe("happy path", () => {
    it("reviews the token with the reviewer JWT, answers as a sign-in does, and the token works", async () => {
      const identityId = await k8sIdentity("k8s-good");
      const before = cluster.received.length;
      const res = await login(identityId, "good-token");
      expect(res.status).toBe(200);
      expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("025-")));
      const body = issued.parse(res.body);
      expect(body).toMatchObject({ expiresIn: 1200, accessTokenMaxTTL: 7200, tokenType: "Bearer" });

      const [review] = cluster.received.slice(before);
      expect(review).toMatchObject({
        method: "POST",
        url: "/apis/authentication.k8s.io/v1/tokenreviews",
        headers: { authorization: `Bearer ${REVIEWER_JWT}`, "content-type": "application/json" },
      });
      expect(JSON.parse(review?.body ?? "")).toEqual({
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenReview",
        spec: { token: "good-token", audiences: ["keyhold"] },
      });

      const read = await svc.endpoint("identities.get", { params: { identityId } }, { token: body.accessToken });
      expect(read.status).toBe(200);
      const row = await svc.app.db
        .selectFrom("identity_access_tokens")
        .selectAll()
        .where("identity_id", "=", identityId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ auth_method: "kubernetes-auth", access_token_ttl: 1200, access_token_max_ttl: 7200 });
    });

    it("without a reviewer JWT the token reviews itself; empty allow-lists allow any service account", async () => {
      const identityId = await k8sIdentity("k8s-open", {
        tokenReviewerJwt: undefined,
        allowedNamespaces: "",
        allowedNames: "",
        allowedAudience: "",
      });
      const before = cluster.received.length;
      const res = await login(identityId, "other-namespace");
      expect(res.status).toBe(200);
      const [review] = cluster.received.slice(before);
      expect(review?.headers.authorization).toBe("Bearer other-namespace");
      expect(JSON.parse(review?.body ?? "")).toEqual({
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenReview",
        spec: { token: "other-namespace" },
      });
    });

    it("revoking the method revokes the tokens its logins issued", async () => {
      const identityId = await k8sIdentity("k8s-revoke");
      const { accessToken } = issued.parse((await login(identityId, "good-token")).body);
      expect((await svc.endpoint("kubernetesAuth.revoke", { params: { identityId } })).status).toBe(200);
      const read = await svc.endpoint("identities.get", { params: { identityId } }, { token: accessToken });
      expect(read.status).toBe(401);
    });
  });

  describe("refusals", () => {
    const refusals: [string, string, number, string | RegExp][] = [
      ["a token the cluster does not authenticate", "not-authenticated", 401, /did not authenticate/],
      ["a review that reports an error", "review-error", 401, "Access denied: token has expired"],
      ["a namespace not allowed", "other-namespace", 401, "Access denied: K8s namespace not allowed."],
      ["a name not allowed", "other-name", 401, "Access denied: K8s name not allowed."],
      ["an audience the review does not carry", "no-audience", 401, "Access denied: K8s audience not allowed."],
      ["a user that is not a service account", "not-a-service-account", 400, /not a service account/],
    ];
    for (const [what, jwt, status, message] of refusals) {
      it(`refuses ${what} with ${status}, issuing no token`, async () => {
        const identityId = await k8sIdentity(`k8s-${jwt}`);
        const res = await login(identityId, jwt);
        expect(res.status).toBe(status);
        const error = ErrorBodySchema.parse(res.body);
        if (typeof message === "string") expect(error.message).toBe(message);
        else expect(error.message).toMatch(message);
        const rows = await svc.app.db
          .selectFrom("identity_access_tokens")
          .select("id")
          .where("identity_id", "=", identityId)
          .execute();
        expect(rows).toEqual([]);
      });
    }

    it("answers 401 when the cluster refuses the reviewer's review request", async () => {
      const identityId = await k8sIdentity("k8s-unprivileged", { tokenReviewerJwt: "unprivileged-reviewer" });
      const res = await login(identityId, "good-token");
      expect(res.status).toBe(401);
      expect(ErrorBodySchema.parse(res.body).message).toMatch(
        /HTTP 403.*tokenreviews.authentication.k8s.io is forbidden/,
      );
    });

    it("answers 502 when the Kubernetes API cannot be reached", async () => {
      const identityId = await k8sIdentity("k8s-unreachable", { kubernetesHost: await unusedLoopbackUrl() });
      const res = await login(identityId, "good-token");
      expect(res.status).toBe(502);
      expect(ErrorBodySchema.parse(res.body)).toMatchObject({
        error: "BadGateway",
        message: "The Kubernetes API server could not be reached for the token review",
      });
    });

    it("answers 404 for an identity without Kubernetes auth", async () => {
      const res = await svc.endpoint("identities.create", {
        body: { name: "k8s-none", organizationId: svc.info.orgId, role: "member" },
      });
      const identityId = endpoints["identities.create"].response.parse(res.body).identity.id;
      const refused = await login(identityId, "good-token");
      expect(refused.status).toBe(404);
      expect(ErrorBodySchema.parse(refused.body).message).toBe(
        "Kubernetes auth method not found for identity, did you configure Kubernetes auth?",
      );
    });

    it("answers 422 for a body without a token or with an identity id that is not a UUID", async () => {
      const identityId = await k8sIdentity("k8s-422");
      expect((await login(identityId, "")).status).toBe(422);
      expect((await login("not-a-uuid", "good-token")).status).toBe(422);
    });
  });
});
