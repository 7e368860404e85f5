import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { recordedBody, shapeOf, shapesSideBySide } from "../test/shapes.ts";

/** Each identities endpoint answers with the mid-2026 server's exact shape (keys at every depth, types). */
describeEachDatabase("identities: the recorded server's shapes", (kind) => {
  let svc: TestService;
  let identityId: string;
  beforeAll(async () => {
    svc = await startService({ kind });
    const created = await svc.endpoint("identities.create", {
      body: { name: "shape", organizationId: svc.info.orgId, role: "member", metadata: [{ key: "team", value: "x" }] },
    });
    identityId = (created.body as { identity: { id: string } }).identity.id;
  });
  afterAll(async () => svc?.close());

  it("create", async () => {
    const res = await svc.endpoint("identities.create", {
      body: { name: "shape-create", organizationId: svc.info.orgId, metadata: [{ key: "team", value: "x" }] },
    });
    expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("003-")));
  });

  it("get", async () => {
    const res = await svc.endpoint("identities.get", { params: { identityId } });
    expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("004-")));
  });

  it("list", async () => {
    const res = await svc.endpoint("identities.list", { query: { orgId: svc.info.orgId } });
    expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("001-")));
  });

  it("update", async () => {
    const res = await svc.endpoint("identities.update", {
      params: { identityId },
      body: { name: "shape-renamed", metadata: [{ key: "team", value: "sre" }] },
    });
    expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("005-")));
  });

  it("delete", async () => {
    const created = await svc.endpoint("identities.create", {
      body: { name: "shape-delete", organizationId: svc.info.orgId },
    });
    const id = (created.body as { identity: { id: string } }).identity.id;
    const res = await svc.endpoint("identities.delete", { params: { identityId: id } });
    expect(shapeOf(res.body)).toEqual(shapeOf(recordedBody("155-")));
  });
});

describeEachDatabase("identities: search, pages and project memberships", (kind) => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService({ kind });
    for (const [name, role] of [
      ["search-alpha", "member"],
      ["search-beta", "member"],
      ["search-gamma", "no-access"],
      ["other_50", "no-access"],
    ] as const) {
      await svc.endpoint("identities.create", { body: { name, organizationId: svc.info.orgId, role } });
    }
  });
  afterAll(async () => svc?.close());

  const search = (body: unknown) => svc.endpoint("identities.search", { body });
  const names = (body: unknown) =>
    (body as { identities: { identity: { name: string } }[] }).identities.map((m) => m.identity.name);

  it("searches by part of the name, any case, a page at a time, with the total", async () => {
    const first = await search({ search: { name: { $contains: "SEARCH" } }, limit: 2 });
    expect(first.status).toBe(200);
    expect(names(first.body)).toEqual(["search-alpha", "search-beta"]);
    expect((first.body as { totalCount: number }).totalCount).toBe(3);
    const second = await search({ search: { name: "search" }, limit: 2, offset: 2 });
    expect(names(second.body)).toEqual(["search-gamma"]);
    const down = await search({ search: { name: "search" }, orderDirection: "desc", limit: 1 });
    expect(names(down.body)).toEqual(["search-gamma"]);
  });

  it("filters by role and exact names, and treats LIKE's wildcards as text", async () => {
    expect(names((await search({ search: { role: "no-access" } })).body)).toEqual(["other_50", "search-gamma"]);
    expect(names((await search({ search: { name: { $in: ["search-beta", "nope"] } } })).body)).toEqual(["search-beta"]);
    // "_" and "%" match themselves only.
    expect(names((await search({ search: { name: "h_a" } })).body)).toEqual([]);
    expect((await search({ search: { name: "x;drop" } })).status).toBe(422);
    expect((await search({ limit: 101 })).status).toBe(422);
  });

  it("lists the organisation's memberships a page at a time (v2), in the recorded shape", async () => {
    const res = await svc.endpoint("identities.listOrgMemberships", {
      params: { orgId: svc.info.orgId },
      query: { limit: "2", search: "search" },
    });
    expect(res.status).toBe(200);
    const body = res.body as { identityMemberships: unknown[]; totalCount: number };
    expect(body.identityMemberships).toHaveLength(2);
    expect(body.totalCount).toBe(3);
    const [ours, recorded] = shapesSideBySide(body, recordedBody("002-"));
    expect(ours).toEqual(recorded);
    const foreign = await svc.endpoint("identities.listOrgMemberships", {
      params: { orgId: "00000000-0000-4000-8000-000000000000" },
    });
    expect(foreign.status).toBe(403);
  });

  it("lists an identity's project memberships (none before it joins a project) and 404s an unknown identity", async () => {
    const res = await svc.endpoint("identities.listProjectMemberships", {
      params: { identityId: svc.info.adminIdentityId },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ identityMemberships: [] });
    const unknown = await svc.endpoint("identities.listProjectMemberships", {
      params: { identityId: "00000000-0000-4000-8000-000000000001" },
    });
    expect(unknown.status).toBe(404);
  });
});
