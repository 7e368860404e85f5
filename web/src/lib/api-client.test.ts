import { endpoints } from "@keyhold/contract";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorBody, json, mockFetch } from "@/testing/fetch-mock";
import { IDENTITY_ID, membership, ORG_ID } from "@/testing/fixtures";
import { call } from "./api-client";
import { ApiError } from "./api-error";

afterEach(() => vi.unstubAllGlobals());

describe("call: requests", () => {
  it("sends X-CSRF: 1 and no content type on a GET, with the query string", async () => {
    const { requests } = mockFetch(() => json(200, { identities: [], totalCount: 0 }));
    await call(endpoints["identities.list"], { query: { orgId: ORG_ID } });
    const [req] = requests;
    expect(req?.url).toBe(`/api/v1/identities?orgId=${ORG_ID}`);
    expect(req?.method).toBe("GET");
    expect(req?.headers.get("x-csrf")).toBe("1");
    expect(req?.headers.get("content-type")).toBeNull();
    expect(req?.body).toBeUndefined();
  });

  it("sends the body as JSON with a JSON content type", async () => {
    const { requests } = mockFetch(() => json(200, { identity: { ...identityRecord(), authMethods: [] } }));
    await call(endpoints["identities.create"], { body: { name: "ci", organizationId: ORG_ID, role: "member" } });
    const [req] = requests;
    expect(req?.method).toBe("POST");
    expect(req?.headers.get("content-type")).toBe("application/json");
    expect(req?.headers.get("x-csrf")).toBe("1");
    expect(JSON.parse(req?.body ?? "null")).toEqual({ name: "ci", organizationId: ORG_ID, role: "member" });
  });

  it("percent-encodes path parameters so they cannot add segments", async () => {
    const { requests } = mockFetch(() => json(200, { identity: membership() }));
    await call(endpoints["identities.get"], { params: { identityId: "a/b c?d" } });
    expect(requests[0]?.url).toBe("/api/v1/identities/a%2Fb%20c%3Fd");
  });

  it("refuses a dot-segment parameter before sending anything", () => {
    const { fetchMock } = mockFetch(() => json(200, {}));
    expect(() => call(endpoints["identities.get"], { params: { identityId: ".." } })).toThrow(/dot segment/);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("returns the validated response envelope", async () => {
    mockFetch(() => json(200, { identity: membership() }));
    const result = await call(endpoints["identities.get"], { params: { identityId: IDENTITY_ID } });
    expect(result.identity.identity.name).toBe("ci-deployer");
  });
});

describe("call: errors", () => {
  it("throws an ApiError built from the error envelope", async () => {
    mockFetch(() => json(404, errorBody(404, "NotFound", "Identity not found")));
    const error = await call(endpoints["identities.get"], { params: { identityId: IDENTITY_ID } }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: "NotFound", message: "Identity not found", reqId: "req-123" });
  });

  it("keeps the validation issues of a 422", async () => {
    const issues = [{ code: "too_small", path: ["name"], message: "Name is required" }];
    mockFetch(() => json(422, errorBody(422, "ValidationFailure", issues)));
    const error = await call(endpoints["identities.update"], { params: { identityId: IDENTITY_ID }, body: {} }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).isValidation).toBe(true);
    expect((error as ApiError).issues).toEqual(issues);
  });

  it("attaches the endpoint's permission to a 403", async () => {
    mockFetch(() => json(403, errorBody(403, "PermissionDenied", "You are not allowed to delete on identity")));
    const error = await call(endpoints["identities.delete"], { params: { identityId: IDENTITY_ID } }).catch((e) => e);
    expect((error as ApiError).permission).toEqual({ scope: "org", subject: "identity", action: "delete" });
  });

  it("still throws an ApiError with the status when the body is not an envelope", async () => {
    mockFetch(() => new Response("<html>Bad gateway</html>", { status: 502, statusText: "Bad Gateway" }));
    const error = await call(endpoints["identities.get"], { params: { identityId: IDENTITY_ID } }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, code: "Bad Gateway" });
  });

  it("turns a network failure into an ApiError with status 0", async () => {
    mockFetch(() => Promise.reject(new TypeError("Failed to fetch")));
    const error = await call(endpoints["identities.get"], { params: { identityId: IDENTITY_ID } }).catch((e) => e);
    expect(error).toMatchObject({ status: 0, code: "NetworkError" });
  });

  it("rejects a success answer that does not match the contract", async () => {
    mockFetch(() => json(200, { identity: { name: 42 } }));
    const error = await call(endpoints["identities.get"], { params: { identityId: IDENTITY_ID } }).catch((e) => e);
    expect(error).toMatchObject({ status: 200, code: "UnexpectedResponse" });
  });
});

function identityRecord() {
  return {
    id: IDENTITY_ID,
    name: "ci",
    authMethod: null,
    createdAt: "2026-01-02T03:04:05.000Z",
    updatedAt: "2026-01-02T03:04:05.000Z",
    hasDeleteProtection: false,
    metadata: [],
  };
}
