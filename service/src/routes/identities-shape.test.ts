import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { recordedBody, shapeOf } from "../test/shapes.ts";

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
