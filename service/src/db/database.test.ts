import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";

describeEachDatabase("prepared and cached statements", (kind) => {
  let svc: TestService;
  let other: TestService;
  beforeAll(async () => {
    svc = await startService({ kind });
    other = await startService({ kind, shareWith: svc });
  });
  afterAll(async () => {
    await other?.close();
    await svc?.close();
  });

  const readAdmin = () => svc.endpoint("identities.get", { params: { identityId: svc.info.adminIdentityId } });

  it("keep answering after another instance changes a table under them", async () => {
    // Run the hot statements several times, so that they are prepared and cached.
    for (let i = 0; i < 6; i++) expect((await readAdmin()).status).toBe(200);
    // As a later migration run by another instance would: change the shape of a table read with m.*.
    await sql`ALTER TABLE identity_org_memberships ADD COLUMN added_later text`.execute(other.app.db);
    for (let i = 0; i < 3; i++) {
      const res = await readAdmin();
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain("added_later");
    }
  });
});
