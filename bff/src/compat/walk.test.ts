import { endpoints, ErrorBodySchema } from "@keyhold/contract";
import { describe, expect, it } from "vitest";
import { CANNOT_CLEAR, isRouteNotFound, normaliseError } from "./errors.ts";
import { recordRules } from "./rules.ts";
import { newEvidence, normalise } from "./walk.ts";

const read = (id: keyof typeof endpoints, body: unknown) => {
  const evidence = newEvidence();
  const value = normalise(endpoints[id].response, body, recordRules, evidence);
  return { value, evidence, parsed: endpoints[id].response.safeParse(value) };
};

const at = "2024-10-10T10:00:00.000Z";
const membership2024 = (authMethod: string | null) => ({
  id: "a493e0c7-551a-425f-b8b7-06dee5bdb047",
  role: "member",
  roleId: null,
  orgId: "ec825c23-14f9-4219-8980-15692183c871",
  createdAt: at,
  updatedAt: at,
  identityId: "69ead4f2-e7ce-452f-8ca0-6f65030a22d4",
  identity: { name: "ci", id: "69ead4f2-e7ce-452f-8ca0-6f65030a22d4", authMethod },
});

describe("records of older servers, brought to the current shape", () => {
  it("an identity's one authMethod becomes authMethods, and no hasDeleteProtection means false", () => {
    const { value, evidence, parsed } = read("identities.get", { identity: membership2024("token-auth") });
    expect(parsed.success).toBe(true);
    expect((value as { identity: { identity: unknown } }).identity.identity).toEqual({
      name: "ci",
      id: "69ead4f2-e7ce-452f-8ca0-6f65030a22d4",
      authMethod: "token-auth",
      authMethods: ["token-auth"],
      hasDeleteProtection: false,
    });
    expect(Object.fromEntries(evidence.features)).toEqual({ deleteProtection: false, multipleAuthMethods: false });
    expect(evidence.filled).toEqual(["identity.identity.hasDeleteProtection", "identity.identity.authMethods"]);
  });

  it("a null authMethod is no auth method", () => {
    const { value } = read("identities.list", { identities: [membership2024(null)], totalCount: "1" });
    const list = value as { identities: { identity: { authMethods: string[] } }[]; totalCount: unknown };
    expect(list.identities[0]?.identity.authMethods).toEqual([]);
    // Numbers sent as strings are read as numbers.
    expect(list.totalCount).toBe(1);
  });

  it("a current record is returned as it came, the same object, and proves the features present", () => {
    const current = {
      identity: {
        ...membership2024(null),
        identity: {
          name: "ci",
          id: "69ead4f2-e7ce-452f-8ca0-6f65030a22d4",
          hasDeleteProtection: true,
          authMethods: [],
        },
        lastLoginTime: null,
      },
    };
    const { value, evidence } = read("identities.get", current);
    expect(value).toBe(current);
    expect(Object.fromEntries(evidence.features)).toEqual({ deleteProtection: true, multipleAuthMethods: true });
  });

  it("the identity record itself (create, update, delete) gets hasDeleteProtection", () => {
    const body = {
      identity: {
        id: "69ead4f2-e7ce-452f-8ca0-6f65030a22d4",
        name: "ci",
        authMethod: null,
        createdAt: at,
        updatedAt: at,
      },
    };
    const { value } = read("identities.update", body);
    expect(endpoints["identities.update"].response.parse(value).identity.hasDeleteProtection).toBe(false);
  });

  it("token auth without accessTokenPeriod has a period of 0", () => {
    const body = {
      identityTokenAuth: {
        id: "3b0f6b52-8f57-4b8b-9e36-1ee2b5c1a2d3",
        accessTokenTTL: 2592000,
        accessTokenMaxTTL: 2592000,
        accessTokenNumUsesLimit: 0,
        accessTokenTrustedIps: [{ type: "ipv4", prefix: 0, ipAddress: "0.0.0.0" }],
        createdAt: at,
        updatedAt: at,
        identityId: "69ead4f2-e7ce-452f-8ca0-6f65030a22d4",
      },
    };
    const { value } = read("tokenAuth.attach", body);
    expect(endpoints["tokenAuth.attach"].response.parse(value).identityTokenAuth.accessTokenPeriod).toBe(0);
  });

  it("Kubernetes auth without review modes asks the API server, and a DELETE without caCert has none", () => {
    const body = {
      identityKubernetesAuth: {
        id: "3b0f6b52-8f57-4b8b-9e36-1ee2b5c1a2d3",
        accessTokenTTL: 3600,
        accessTokenMaxTTL: 3600,
        accessTokenNumUsesLimit: 0,
        accessTokenTrustedIps: [],
        createdAt: at,
        updatedAt: at,
        identityId: "69ead4f2-e7ce-452f-8ca0-6f65030a22d4",
        kubernetesHost: "https://k8s.example:6443",
        allowedNamespaces: "",
        allowedNames: "",
        allowedAudience: "",
      },
    };
    const { value } = read("kubernetesAuth.get", body);
    expect(endpoints["kubernetesAuth.get"].response.parse(value).identityKubernetesAuth).toMatchObject({
      tokenReviewMode: "api",
      caCert: "",
    });
  });

  it("a project without type, secretSharing and showSnapshotsLegacy gets the defaults of a secrets project", () => {
    const body = {
      workspace: {
        id: "a4f170d4-346a-447e-ae95-ccdd092a6144",
        name: "Payments",
        slug: "payments",
        orgId: "ec825c23-14f9-4219-8980-15692183c871",
        createdAt: at,
        updatedAt: at,
        version: 3,
        pitVersionLimit: 10,
        environments: [{ name: "Development", slug: "dev", id: "e1" }],
      },
    };
    const { value, evidence } = read("projects.get", body);
    expect(endpoints["projects.get"].response.parse(value).workspace).toMatchObject({
      _id: "a4f170d4-346a-447e-ae95-ccdd092a6144",
      type: "secret-manager",
      secretSharing: true,
      showSnapshotsLegacy: false,
      description: null,
    });
    // No description field at all: the server keeps none (it drops one sent on create or update).
    expect(evidence.features.get("projectDescription")).toBe(false);
  });

  it("a project whose description is null still proves the server keeps descriptions", () => {
    const { evidence } = read("projects.update", {
      workspace: {
        id: "a4f170d4-346a-447e-ae95-ccdd092a6144",
        name: "Payments",
        description: null,
        type: "secret-manager",
        slug: "payments",
        orgId: "ec825c23-14f9-4219-8980-15692183c871",
        createdAt: at,
        updatedAt: at,
        version: 3,
        pitVersionLimit: 10,
        hasDeleteProtection: false,
        secretSharing: true,
        showSnapshotsLegacy: false,
      },
    });
    expect(evidence.features.get("projectDescription")).toBe(true);
  });

  it("a secret without secretValueHidden has its value shown", () => {
    const body = {
      secret: {
        id: "5f9b1c9e-0c44-4e4b-9a70-2a0a7f8e1d11",
        _id: "5f9b1c9e-0c44-4e4b-9a70-2a0a7f8e1d11",
        workspace: "a4f170d4-346a-447e-ae95-ccdd092a6144",
        environment: "dev",
        version: 1,
        type: "shared",
        secretKey: "DB_URL",
        secretValue: "<redacted>",
        secretComment: "",
        createdAt: at,
        updatedAt: at,
      },
    };
    const { value } = read("secrets.update", body);
    expect((value as { secret: { secretValueHidden: unknown } }).secret.secretValueHidden).toBe(false);
  });

  it("leaves fields it does not know as they came", () => {
    const body = { identity: { ...membership2024("token-auth"), lastLoginTime: null, futureField: { a: 1 } } };
    const { value } = read("identities.get", body);
    expect((value as { identity: Record<string, unknown> }).identity.futureField).toEqual({ a: 1 });
  });
});

describe("error bodies of any server version", () => {
  it("fills a missing reqId with the BFF's own", () => {
    const { status, body } = normaliseError(
      404,
      { statusCode: 404, error: "NotFound", message: "Secret not found" },
      "req-abc",
    );
    expect(status).toBe(404);
    expect(ErrorBodySchema.parse(body)).toEqual({
      reqId: "req-abc",
      statusCode: 404,
      error: "NotFound",
      message: "Secret not found",
    });
  });

  it("keeps the server's own reqId", () => {
    const { body } = normaliseError(
      400,
      { reqId: "req-server", statusCode: 400, error: "BadRequest", message: "x" },
      "req-bff",
    );
    expect(body.reqId).toBe("req-server");
  });

  it("reads an older server's 401 ValidationFailure as a 422 with its issues", () => {
    const issues = [
      { code: "invalid_type", expected: "string", received: "undefined", path: ["name"], message: "Required" },
    ];
    const { status, body } = normaliseError(
      401,
      { statusCode: 401, error: "ValidationFailure", message: issues },
      "req-1",
    );
    expect(status).toBe(422);
    expect(body).toMatchObject({ statusCode: 422, error: "ValidationFailure", message: issues });
  });

  it("says in words that an older server will not let a field be cleared (its 401 refusal of a null)", () => {
    // Recorded from an October 2024 server: PATCH kubernetes-auth with `tokenReviewerJwt: null`.
    const issue = {
      code: "invalid_type",
      expected: "string",
      received: "null",
      path: ["tokenReviewerJwt"],
      message: "Expected string, received null",
    };
    const other = {
      code: "too_small",
      minimum: 1,
      path: ["name"],
      message: "String must contain at least 1 character(s)",
    };
    const { status, body } = normaliseError(
      401,
      { statusCode: 401, error: "ValidationFailure", message: [issue, other] },
      "req-1",
    );
    expect(status).toBe(422);
    expect(body.message).toEqual([{ ...issue, message: CANNOT_CLEAR }, other]);
  });

  it("turns a cause written into `error` into the message, named after the status", () => {
    expect(
      normaliseError(500, { statusCode: 500, error: "Update by id", message: "Something went wrong" }, "r").body,
    ).toMatchObject({
      error: "InternalServerError",
      message: "Update by id",
    });
    expect(
      normaliseError(
        403,
        {
          statusCode: 403,
          error: "Identity is not a member of the specified project",
          message: "You are not allowed to access this resource",
        },
        "r",
      ).body,
    ).toMatchObject({ error: "ForbiddenError", message: "Identity is not a member of the specified project" });
  });

  it("reads an October 2024 server's 500 for an unknown project as the 404 it means", () => {
    const { status, body } = normaliseError(
      500,
      { statusCode: 500, error: "Failed to find project by id", message: "Something went wrong" },
      "r",
    );
    expect(status).toBe(404);
    expect(body).toMatchObject({ statusCode: 404, error: "NotFound", message: "Failed to find project by id" });
  });

  it("names a route-not-found NotFound and recognises it as such", () => {
    const raw = { message: "Route POST:/api/v2/workspace/x/roles not found", error: "Not Found", statusCode: 404 };
    expect(normaliseError(404, raw, "r").body.error).toBe("NotFound");
    expect(isRouteNotFound(404, raw)).toBe(true);
    expect(isRouteNotFound(404, { statusCode: 404, error: "NotFound", message: "Secret not found" })).toBe(false);
  });

  it("describes a body that is no error envelope by its status", () => {
    expect(normaliseError(503, undefined, "r").body).toEqual({
      reqId: "r",
      statusCode: 503,
      error: "HttpError",
      message: "The secrets service answered HTTP 503 without an explanation.",
    });
  });
});
