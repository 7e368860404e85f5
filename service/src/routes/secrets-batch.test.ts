import { endpoints } from "@keyhold/contract";
import { describe, expect, it } from "vitest";
import { batchFixture } from "../test/batch-fixtures.ts";
import { describeEachDatabase } from "../test/harness.ts";
import { createSecret, type Place } from "../test/secret-fixtures.ts";

/** Batches of raw secrets: the recorded flow, duplicates, renames; one version per changed secret. */
describeEachDatabase("batch raw secrets", (kind) => {
  const f = batchFixture(kind);

  describe("the recorded flow", () => {
    it("creates, updates, renames without a value, upserts and deletes, answering in the recorded order", async () => {
      const created = await f.batch("secrets.batchCreate", {
        secrets: [
          { secretKey: "BATCH_A", secretValue: "batch-a-v1", secretComment: "first" },
          { secretKey: "BATCH_B", secretValue: "batch-b-v1" },
          { secretKey: "BATCH_C", secretValue: "batch-c-v1", skipMultilineEncoding: true },
        ],
      });
      expect(created.status).toBe(200);
      const made = f.answers(created.body);
      expect(made.map((s) => s.id)).toEqual(
        made
          .map((s) => s.id)
          .sort()
          .reverse(),
      );
      expect(made.map((s) => [s.secretKey, s.secretValue, s.version, s.secretComment]).sort()).toEqual([
        ["BATCH_A", "batch-a-v1", 1, "first"],
        ["BATCH_B", "batch-b-v1", 1, ""],
        ["BATCH_C", "batch-c-v1", 1, ""],
      ]);

      const updated = await f.batch("secrets.batchUpdate", {
        secrets: [
          { secretKey: "BATCH_A", secretValue: "batch-a-v2", secretComment: "second" },
          { secretKey: "BATCH_B", newSecretName: "BATCH_B_RENAMED" },
        ],
      });
      expect(updated.status).toBe(200);
      const changed = f.answers(updated.body);
      expect(changed.map((s) => s.id)).toEqual(changed.map((s) => s.id).sort());
      // A rename without a value keeps the value and answers it.
      expect(changed.map((s) => [s.secretKey, s.secretValue, s.version, s.secretComment]).sort()).toEqual([
        ["BATCH_A", "batch-a-v2", 2, "second"],
        ["BATCH_B_RENAMED", "batch-b-v1", 2, ""],
      ]);

      const upserted = await f.batch("secrets.batchUpdate", {
        mode: "upsert",
        secrets: [
          { secretKey: "BATCH_C", secretValue: "batch-c-v2" },
          { secretKey: "BATCH_D", secretValue: "batch-d-v1" },
        ],
      });
      expect(upserted.status).toBe(200);
      // What an item leaves out is kept: BATCH_C's multiline flag, BATCH_A's comment.
      expect(
        f.answers(upserted.body).map((s) => [s.secretKey, s.version, s.skipMultilineEncoding, s.secretComment]),
      ).toEqual([
        ["BATCH_C", 2, true, ""],
        ["BATCH_D", 1, false, ""],
      ]);
      const commentOnly = await f.batch("secrets.batchUpdate", {
        secrets: [{ secretKey: "BATCH_A", secretValue: "batch-a-v2" }],
      });
      expect(f.answers(commentOnly.body).map((s) => [s.secretComment, s.version])).toEqual([["second", 3]]);
      expect(await f.state()).toEqual({
        BATCH_A: ["batch-a-v2", 3],
        BATCH_B_RENAMED: ["batch-b-v1", 2],
        BATCH_C: ["batch-c-v2", 2],
        BATCH_D: ["batch-d-v1", 1],
      });

      const deleted = await f.batch("secrets.batchDelete", {
        secrets: [{ secretKey: "BATCH_D" }, { secretKey: "BATCH_C", type: "shared" }],
      });
      expect(deleted.status).toBe(200);
      expect(f.answers(deleted.body).map((s) => [s.secretKey, s.secretValue])).toEqual([
        ["BATCH_D", "batch-d-v1"],
        ["BATCH_C", "batch-c-v2"],
      ]);
      expect(Object.keys(await f.state()).sort()).toEqual(["BATCH_A", "BATCH_B_RENAMED"]);
    });

    it("serves the same on the v4 paths (projectId)", async () => {
      const v4 = { projectId: f.projectId(), environment: "prod", secretPath: "/" };
      const created = await f.svc().endpoint("secrets.batchCreateV4", {
        body: { ...v4, secrets: [{ secretKey: "V4_A", secretValue: "a" }] },
      });
      expect(created.status).toBe(200);
      const updated = await f.svc().endpoint("secrets.batchUpdateV4", {
        body: { ...v4, secrets: [{ secretKey: "V4_A", secretValue: "a2" }] },
      });
      expect(f.answers(updated.body).map((s) => [s.secretKey, s.secretValue, s.version])).toEqual([["V4_A", "a2", 2]]);
      const deleted = await f.svc().endpoint("secrets.batchDeleteV4", {
        body: { ...v4, secrets: [{ secretKey: "V4_A" }] },
      });
      expect(deleted.status).toBe(200);
      expect((await f.state()).V4_A).toBeUndefined();
    });
  });

  describe("duplicates", () => {
    it("the same key twice in a create keeps one secret with the last value (as the mid-2026 server)", async () => {
      const versions = await f.versionRows();
      const res = await f.batch("secrets.batchCreate", {
        secrets: [
          { secretKey: "BATCH_DUP", secretValue: "one" },
          { secretKey: "BATCH_DUP", secretValue: "two" },
        ],
      });
      expect(res.status).toBe(200);
      expect(f.answers(res.body).map((s) => [s.secretKey, s.secretValue, s.version])).toEqual([
        ["BATCH_DUP", "two", 1],
      ]);
      expect((await f.state()).BATCH_DUP).toEqual(["two", 1]);
      expect(await f.versionRows()).toBe(versions + 1);
    });

    it("the same key twice in an update is refused; twice in a delete is deleted once", async () => {
      const before = [await f.state(), await f.versionRows()];
      const res = await f.batch("secrets.batchUpdate", {
        secrets: [
          { secretKey: "BATCH_DUP", secretValue: "three" },
          { secretKey: "BATCH_DUP", secretValue: "four" },
        ],
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: "Secret BATCH_DUP is named more than once in the batch" });
      expect([await f.state(), await f.versionRows()]).toEqual(before);
      const deleted = await f.batch("secrets.batchDelete", {
        secrets: [{ secretKey: "BATCH_DUP" }, { secretKey: "BATCH_DUP" }],
      });
      expect(deleted.status).toBe(200);
      expect(f.answers(deleted.body).map((s) => s.secretKey)).toEqual(["BATCH_DUP"]);
      expect((await f.state()).BATCH_DUP).toBeUndefined();
    });
  });

  it("renames rewrite references to the renamed secrets, in the folder and across environments", async () => {
    const staging = { ...f.prod(), environment: "staging" };
    await createSecret(f.svc(), f.prod(), "REF_HOST", { secretValue: "db.internal" });
    await createSecret(f.svc(), f.prod(), "REF_PORT", { secretValue: "5432" });
    await createSecret(f.svc(), f.prod(), "REF_URL", { secretValue: "postgres://${REF_HOST}:${REF_PORT}/app" });
    await createSecret(f.svc(), staging, "REF_REMOTE", { secretValue: "${prod.REF_HOST}" });
    const res = await f.batch("secrets.batchUpdate", {
      secrets: [
        { secretKey: "REF_HOST", newSecretName: "REF_DB_HOST" },
        { secretKey: "REF_PORT", newSecretName: "REF_DB_PORT", secretValue: "6432" },
      ],
    });
    expect(res.status).toBe(200);
    const raw = async (name: string, place: Place) =>
      endpoints["secrets.get"].response.parse(
        (await f.svc().endpoint("secrets.get", { params: { secretName: name }, query: place })).body,
      ).secret;
    // One new version for the secret that referred to both, however many renames it saw.
    expect(await raw("REF_URL", f.prod())).toMatchObject({
      secretValue: "postgres://${REF_DB_HOST}:${REF_DB_PORT}/app",
      version: 2,
    });
    expect(await raw("REF_REMOTE", staging)).toMatchObject({ secretValue: "${prod.REF_DB_HOST}", version: 2 });
    expect(await f.versionsOf("REF_DB_PORT")).toEqual([1, 2]);
  });
});
