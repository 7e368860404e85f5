import { describe, expect, it } from "vitest";
import { batchFixture } from "../test/batch-fixtures.ts";
import { describeEachDatabase } from "../test/harness.ts";
import { createSecret } from "../test/secret-fixtures.ts";

/** Batches of raw secrets are all or nothing: every failing case leaves the folder and its versions as they were. */
describeEachDatabase("batch raw secrets: failures", (kind) => {
  const f = batchFixture(kind);

  describe("all or nothing", () => {
    it("refuses an empty list with 422", async () => {
      const res = await f.batch("secrets.batchCreate", { secrets: [] });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error: "ValidationFailure", message: [{ path: ["secrets"] }] });
    });
    it("a create naming an existing key creates nothing", async () => {
      await createSecret(f.svc(), f.prod(), "EXISTING_1");
      const before = [await f.state(), await f.versionRows()];
      const res = await f.batch("secrets.batchCreate", {
        secrets: [
          { secretKey: "AAA_NEW_1", secretValue: "new-1" },
          { secretKey: "EXISTING_1", secretValue: "dup" },
          { secretKey: "ZZZ_NEW_2", secretValue: "new-2" },
        ],
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: "Secret already exists: EXISTING_1", error: "BadRequest" });
      expect([await f.state(), await f.versionRows()]).toEqual(before);
    });

    it("an update naming a missing key changes nothing", async () => {
      await createSecret(f.svc(), f.prod(), "KEPT_1", { secretValue: "kept" });
      const before = [await f.state(), await f.versionRows()];
      const res = await f.batch("secrets.batchUpdate", {
        secrets: [
          { secretKey: "KEPT_1", secretValue: "changed" },
          { secretKey: "BATCH_MISSING", secretValue: "x" },
        ],
      });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ message: "Secret does not exist: BATCH_MISSING in path /", error: "NotFound" });
      expect([await f.state(), await f.versionRows()]).toEqual(before);
    });

    it("a delete naming a missing key deletes nothing, and names the keys it found", async () => {
      await createSecret(f.svc(), f.prod(), "STAYS_1");
      const before = [await f.state(), await f.versionRows()];
      const res = await f.batch("secrets.batchDelete", {
        secrets: [{ secretKey: "STAYS_1" }, { secretKey: "BATCH_MISSING" }],
      });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ message: "One or more secrets does not exist: STAYS_1", error: "NotFound" });
      expect([await f.state(), await f.versionRows()]).toEqual(before);
    });

    it("a refused item leaves nothing, also when it is refused after others were written", async () => {
      await createSecret(f.svc(), f.prod(), "OPEN_A", { secretValue: "open-a" });
      await createSecret(f.svc(), f.prod(), "ZZ_LOCKED", { secretValue: "locked" });
      const token = await f.memberWith([
        { subject: "secrets", action: ["read"] },
        { subject: "secrets", action: ["edit", "create"], conditions: { secretName: { $glob: "OPEN_*" } } },
      ]);
      const before = [await f.state(), await f.versionRows()];
      // A refused change among allowed ones: nothing is written.
      const res = await f.batch(
        "secrets.batchUpdate",
        {
          secrets: [
            { secretKey: "ZZ_LOCKED", secretValue: "x" },
            { secretKey: "OPEN_A", secretValue: "changed", newSecretName: "OPEN_A2" },
          ],
        },
        token,
      );
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: "PermissionDenied" });
      expect([await f.state(), await f.versionRows()]).toEqual(before);
      // An upsert's creates are checked after its changes were written: the refusal rolls them back.
      const upsert = await f.batch(
        "secrets.batchUpdate",
        {
          mode: "upsert",
          secrets: [
            { secretKey: "OPEN_A", secretValue: "changed" },
            { secretKey: "NOT_OPEN_NEW", secretValue: "y" },
          ],
        },
        token,
      );
      expect(upsert.status).toBe(403);
      expect([await f.state(), await f.versionRows()]).toEqual(before);
      const allowed = await f.batch(
        "secrets.batchUpdate",
        { secrets: [{ secretKey: "OPEN_A", secretValue: "ok" }] },
        token,
      );
      expect(allowed.status).toBe(200);
    });

    it("a caller without create permission creates nothing, and one without delete deletes nothing", async () => {
      const token = await f.memberWith([{ subject: "secrets", action: ["read"] }]);
      const before = [await f.state(), await f.versionRows()];
      const created = await f.batch(
        "secrets.batchCreate",
        { secrets: [{ secretKey: "NOPE", secretValue: "x" }] },
        token,
      );
      expect(created.status).toBe(403);
      expect(created.body).toMatchObject({ statusCode: 403, error: "PermissionDenied" });
      const deleted = await f.batch("secrets.batchDelete", { secrets: [{ secretKey: "OPEN_A" }] }, token);
      expect(deleted.status).toBe(403);
      expect([await f.state(), await f.versionRows()]).toEqual(before);
    });

    it("a rename onto a name another secret holds changes nothing", async () => {
      await createSecret(f.svc(), f.prod(), "RENAME_FROM");
      await createSecret(f.svc(), f.prod(), "RENAME_TAKEN");
      const before = [await f.state(), await f.versionRows()];
      const res = await f.batch("secrets.batchUpdate", {
        secrets: [
          { secretKey: "RENAME_FROM", newSecretName: "RENAME_TAKEN" },
          { secretKey: "OPEN_A", secretValue: "not applied" },
        ],
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: "Secret with the new name already exists" });
      const twice = await f.batch("secrets.batchUpdate", {
        secrets: [
          { secretKey: "RENAME_FROM", newSecretName: "RENAME_BOTH" },
          { secretKey: "RENAME_TAKEN", newSecretName: "RENAME_BOTH" },
        ],
      });
      expect(twice.status).toBe(400);
      expect([await f.state(), await f.versionRows()]).toEqual(before);
    });
  });
});
