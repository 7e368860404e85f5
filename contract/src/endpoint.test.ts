import { describe, expect, it } from "vitest";
import { buildPath, PathParamError, pathParamNames, routePattern } from "./endpoint.ts";
import { endpointList, endpoints, newRequestId } from "./index.ts";

describe("buildPath", () => {
  it("fills parameters in order", () => {
    expect(buildPath("/api/v1/a/{x}/b/{y}", { x: "1", y: "two" })).toBe("/api/v1/a/1/b/two");
  });

  it.each([
    ["a/b", "a%2Fb"],
    ["../admin", "..%2Fadmin"],
    ["//evil.example/x", "%2F%2Fevil.example%2Fx"],
    ["a?b#c", "a%3Fb%23c"],
    ["\\\\evil\\x", "%5C%5Cevil%5Cx"],
    ["%2e%2e%2f", "%252e%252e%252f"],
    ["name with space", "name%20with%20space"],
  ])("encodes %j as one segment", (value, encoded) => {
    expect(buildPath("/api/v1/items/{id}", { id: value })).toBe(`/api/v1/items/${encoded}`);
  });

  it.each([".", "..", "%2e%2e", ".%2E", "%2E"])("refuses the dot segment %j", (value) => {
    expect(() => buildPath("/api/v1/items/{id}", { id: value })).toThrow(PathParamError);
  });

  it("refuses a missing or empty parameter", () => {
    expect(() => buildPath("/api/v1/items/{id}", {})).toThrow(/missing/);
    expect(() => buildPath("/api/v1/items/{id}", { id: "" })).toThrow(/empty/);
  });
});

describe("endpoint table", () => {
  it("has unique ids and unique method + path pairs", () => {
    const ids = endpointList.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const routes = endpointList.map((e) => `${e.method} ${e.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it("declares every path parameter in its params schema", () => {
    for (const e of endpointList) {
      const declared = Object.keys((e.params as { shape: Record<string, unknown> }).shape).sort();
      expect(declared, e.id).toEqual(pathParamNames(e.path).sort());
    }
  });

  it("converts templates to route patterns", () => {
    expect(routePattern(endpoints["identities.get"].path)).toBe("/api/v1/identities/:identityId");
  });
});

describe("schemas", () => {
  it("fills Infisical's defaults when token auth is attached", () => {
    const body = endpoints["tokenAuth.attach"].body.parse({});
    expect(body).toEqual({
      accessTokenTrustedIps: [{ ipAddress: "0.0.0.0/0" }, { ipAddress: "::/0" }],
      accessTokenTTL: 2592000,
      accessTokenMaxTTL: 2592000,
      accessTokenNumUsesLimit: 0,
    });
  });

  it("refuses a TTL above the max TTL on attach", () => {
    const result = endpoints["tokenAuth.attach"].body.safeParse({ accessTokenTTL: 10, accessTokenMaxTTL: 5 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["accessTokenTTL"]);
  });

  it("normalises secret paths", () => {
    const body = endpoints["secrets.update"].body.parse({ workspaceId: "p", environment: "dev", secretPath: "a/b/" });
    expect(body.secretPath).toBe("/a/b");
  });

  it("checks a permission rule's action against its subject", () => {
    const ok = endpoints["projectRoles.create"].body.safeParse({
      slug: "reader",
      name: "Reader",
      permissions: [{ subject: "secrets", action: ["read"], conditions: { environment: "dev" } }],
    });
    expect(ok.success).toBe(true);
    const bad = endpoints["projectRoles.create"].body.safeParse({
      slug: "reader",
      name: "Reader",
      permissions: [{ subject: "role", action: "readValue" }],
    });
    expect(bad.error?.issues[0]?.message).toMatch(/does not apply/);
  });

  it("refuses reserved role slugs", () => {
    const result = endpoints["projectRoles.create"].body.safeParse({ slug: "admin", name: "x", permissions: [] });
    expect(result.success).toBe(false);
  });
});

describe("newRequestId", () => {
  it("writes req- and 14 letters or digits, different each time", () => {
    const ids = Array.from({ length: 200 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(/^req-[A-Za-z0-9]{14}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
