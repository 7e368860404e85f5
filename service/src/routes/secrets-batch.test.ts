import { endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProjectRule } from "../domain/project-permissions.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject, memberWithRoles } from "../test/project-fixtures.ts";
import { seedCustomRole } from "../test/project-seed.ts";
import { createSecret, type Place } from "../test/secret-fixtures.ts";

type Answer = { secretKey: string; secretValue: string; version: number; id: string; secretComment: string };

/** Batches of raw secrets: all or nothing, one version per changed secret, the recorded errors. */
describeEachDatabase("batch raw secrets", (kind) => {
  let svc: TestService;
  let projectId: string;
  let prod: Place;
  let roles = 0;

  beforeAll(async () => {
    svc = await startService({ kind });
    projectId = (await createProject(svc)).id;
    prod = { workspaceId: projectId, environment: "prod", secretPath: "/" };
  });
  afterAll(async () => svc?.close());

  const batch = async (
    id: "secrets.batchCreate" | "secrets.batchUpdate" | "secrets.batchDelete",
    body: Record<string, unknown>,
    token?: string,
  ) => svc.endpoint(id, { body: { ...prod, ...body } }, token === undefined ? {} : { token });
  const answers = (body: unknown) => (body as { secrets: Answer[] }).secrets;

  /** The folder's secrets as key → [value, version], read through the list endpoint. */
  async function state(place: Place = prod): Promise<Record<string, [string, number]>> {
    const res = await svc.endpoint("secrets.list", { query: place });
    expect(res.status).toBe(200);
    const { secrets } = endpoints["secrets.list"].response.parse(res.body);
    return Object.fromEntries(secrets.map((s) => [s.secretKey, [s.secretValue, s.version] as [string, number]]));
  }

  /** How many version rows the project has (a failed batch must add none). */
  const versionRows = async () =>
    (await svc.app.db.selectFrom("secret_versions").select("id").where("project_id", "=", projectId).execute()).length;

  /** The version numbers stored for one secret of the folder, ascending. */
  async function versionsOf(secretKey: string, place: Place = prod): Promise<number[]> {
    const res = await svc.endpoint("secrets.get", { params: { secretName: secretKey }, query: place });
    const id = endpoints["secrets.get"].response.parse(res.body).secret.id;
    const rows = await svc.app.db.selectFrom("secret_versions").select("version").where("secret_id", "=", id).execute();
    return rows.map((r) => r.version).sort((a, b) => a - b);
  }

  async function memberWith(permissions: ProjectRule[]): Promise<string> {
    roles += 1;
    await seedCustomRole(svc, projectId, { slug: `batch-${roles}`, name: `Batch ${roles}`, permissions });
    return (await memberWithRoles(svc, projectId, [`batch-${roles}`], `batch-${roles}`)).token;
  }

  describe("the recorded flow", () => {
    it("creates, updates, renames without a value, upserts and deletes, answering in the recorded order", async () => {
      const created = await batch("secrets.batchCreate", {
        secrets: [
          { secretKey: "BATCH_A", secretValue: "batch-a-v1", secretComment: "first" },
          { secretKey: "BATCH_B", secretValue: "batch-b-v1" },
          { secretKey: "BATCH_C", secretValue: "batch-c-v1", skipMultilineEncoding: true },
        ],
      });
      expect(created.status).toBe(200);
      const made = answers(created.body);
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

      const updated = await batch("secrets.batchUpdate", {
        secrets: [
          { secretKey: "BATCH_A", secretValue: "batch-a-v2", secretComment: "second" },
          { secretKey: "BATCH_B", newSecretName: "BATCH_B_RENAMED" },
        ],
      });
      expect(updated.status).toBe(200);
      const changed = answers(updated.body);
      expect(changed.map((s) => s.id)).toEqual(changed.map((s) => s.id).sort());
      // A rename without a value keeps the value and answers it.
      expect(changed.map((s) => [s.secretKey, s.secretValue, s.version, s.secretComment]).sort()).toEqual([
        ["BATCH_A", "batch-a-v2", 2, "second"],
        ["BATCH_B_RENAMED", "batch-b-v1", 2, ""],
      ]);

      const upserted = await batch("secrets.batchUpdate", {
        mode: "upsert",
        secrets: [
          { secretKey: "BATCH_C", secretValue: "batch-c-v2" },
          { secretKey: "BATCH_D", secretValue: "batch-d-v1" },
        ],
      });
      expect(upserted.status).toBe(200);
      expect(answers(upserted.body).map((s) => [s.secretKey, s.version])).toEqual([
        ["BATCH_C", 2],
        ["BATCH_D", 1],
      ]);
      expect(await state()).toEqual({
        BATCH_A: ["batch-a-v2", 2],
        BATCH_B_RENAMED: ["batch-b-v1", 2],
        BATCH_C: ["batch-c-v2", 2],
        BATCH_D: ["batch-d-v1", 1],
      });

      const deleted = await batch("secrets.batchDelete", {
        secrets: [{ secretKey: "BATCH_D" }, { secretKey: "BATCH_C", type: "shared" }],
      });
      expect(deleted.status).toBe(200);
      expect(answers(deleted.body).map((s) => [s.secretKey, s.secretValue])).toEqual([
        ["BATCH_D", "batch-d-v1"],
        ["BATCH_C", "batch-c-v2"],
      ]);
      expect(Object.keys(await state()).sort()).toEqual(["BATCH_A", "BATCH_B_RENAMED"]);
    });

    it("serves the same on the v4 paths (projectId)", async () => {
      const v4 = { projectId, environment: "prod", secretPath: "/" };
      const created = await svc.endpoint("secrets.batchCreateV4", {
        body: { ...v4, secrets: [{ secretKey: "V4_A", secretValue: "a" }] },
      });
      expect(created.status).toBe(200);
      const updated = await svc.endpoint("secrets.batchUpdateV4", {
        body: { ...v4, secrets: [{ secretKey: "V4_A", secretValue: "a2" }] },
      });
      expect(answers(updated.body).map((s) => [s.secretKey, s.secretValue, s.version])).toEqual([["V4_A", "a2", 2]]);
      const deleted = await svc.endpoint("secrets.batchDeleteV4", {
        body: { ...v4, secrets: [{ secretKey: "V4_A" }] },
      });
      expect(deleted.status).toBe(200);
      expect((await state()).V4_A).toBeUndefined();
    });

    it("refuses an empty list with 422", async () => {
      const res = await batch("secrets.batchCreate", { secrets: [] });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error: "ValidationFailure", message: [{ path: ["secrets"] }] });
    });
  });

  describe("all or nothing", () => {
    it("a create naming an existing key creates nothing", async () => {
      await createSecret(svc, prod, "EXISTING_1");
      const before = [await state(), await versionRows()];
      const res = await batch("secrets.batchCreate", {
        secrets: [
          { secretKey: "AAA_NEW_1", secretValue: "new-1" },
          { secretKey: "EXISTING_1", secretValue: "dup" },
          { secretKey: "ZZZ_NEW_2", secretValue: "new-2" },
        ],
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: "Secret already exists: EXISTING_1", error: "BadRequest" });
      expect([await state(), await versionRows()]).toEqual(before);
    });

    it("an update naming a missing key changes nothing", async () => {
      await createSecret(svc, prod, "KEPT_1", { secretValue: "kept" });
      const before = [await state(), await versionRows()];
      const res = await batch("secrets.batchUpdate", {
        secrets: [
          { secretKey: "KEPT_1", secretValue: "changed" },
          { secretKey: "BATCH_MISSING", secretValue: "x" },
        ],
      });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ message: "Secret does not exist: BATCH_MISSING in path /", error: "NotFound" });
      expect([await state(), await versionRows()]).toEqual(before);
    });

    it("a delete naming a missing key deletes nothing, and names the keys it found", async () => {
      await createSecret(svc, prod, "STAYS_1");
      const before = [await state(), await versionRows()];
      const res = await batch("secrets.batchDelete", {
        secrets: [{ secretKey: "STAYS_1" }, { secretKey: "BATCH_MISSING" }],
      });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ message: "One or more secrets does not exist: STAYS_1", error: "NotFound" });
      expect([await state(), await versionRows()]).toEqual(before);
    });

    it("a refused item leaves nothing, also when it is refused after others were written", async () => {
      await createSecret(svc, prod, "OPEN_A", { secretValue: "open-a" });
      await createSecret(svc, prod, "ZZ_LOCKED", { secretValue: "locked" });
      const token = await memberWith([
        { subject: "secrets", action: ["read"] },
        { subject: "secrets", action: ["edit", "create"], conditions: { secretName: { $glob: "OPEN_*" } } },
      ]);
      const before = [await state(), await versionRows()];
      // A refused change among allowed ones: nothing is written.
      const res = await batch(
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
      expect([await state(), await versionRows()]).toEqual(before);
      // An upsert's creates are checked after its changes were written: the refusal rolls them back.
      const upsert = await batch(
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
      expect([await state(), await versionRows()]).toEqual(before);
      const allowed = await batch(
        "secrets.batchUpdate",
        { secrets: [{ secretKey: "OPEN_A", secretValue: "ok" }] },
        token,
      );
      expect(allowed.status).toBe(200);
    });

    it("a caller without create permission creates nothing, and one without delete deletes nothing", async () => {
      const token = await memberWith([{ subject: "secrets", action: ["read"] }]);
      const before = [await state(), await versionRows()];
      const created = await batch("secrets.batchCreate", { secrets: [{ secretKey: "NOPE", secretValue: "x" }] }, token);
      expect(created.status).toBe(403);
      expect(created.body).toMatchObject({ statusCode: 403, error: "PermissionDenied" });
      const deleted = await batch("secrets.batchDelete", { secrets: [{ secretKey: "OPEN_A" }] }, token);
      expect(deleted.status).toBe(403);
      expect([await state(), await versionRows()]).toEqual(before);
    });

    it("a rename onto a name another secret holds changes nothing", async () => {
      await createSecret(svc, prod, "RENAME_FROM");
      await createSecret(svc, prod, "RENAME_TAKEN");
      const before = [await state(), await versionRows()];
      const res = await batch("secrets.batchUpdate", {
        secrets: [
          { secretKey: "RENAME_FROM", newSecretName: "RENAME_TAKEN" },
          { secretKey: "OPEN_A", secretValue: "not applied" },
        ],
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: "Secret with the new name already exists" });
      const twice = await batch("secrets.batchUpdate", {
        secrets: [
          { secretKey: "RENAME_FROM", newSecretName: "RENAME_BOTH" },
          { secretKey: "RENAME_TAKEN", newSecretName: "RENAME_BOTH" },
        ],
      });
      expect(twice.status).toBe(400);
      expect([await state(), await versionRows()]).toEqual(before);
    });
  });

  describe("duplicates", () => {
    it("the same key twice in a create keeps one secret with the last value (as the mid-2026 server)", async () => {
      const versions = await versionRows();
      const res = await batch("secrets.batchCreate", {
        secrets: [
          { secretKey: "BATCH_DUP", secretValue: "one" },
          { secretKey: "BATCH_DUP", secretValue: "two" },
        ],
      });
      expect(res.status).toBe(200);
      expect(answers(res.body).map((s) => [s.secretKey, s.secretValue, s.version])).toEqual([["BATCH_DUP", "two", 1]]);
      expect((await state()).BATCH_DUP).toEqual(["two", 1]);
      expect(await versionRows()).toBe(versions + 1);
    });

    it("the same key twice in an update is refused; twice in a delete is deleted once", async () => {
      const before = [await state(), await versionRows()];
      const res = await batch("secrets.batchUpdate", {
        secrets: [
          { secretKey: "BATCH_DUP", secretValue: "three" },
          { secretKey: "BATCH_DUP", secretValue: "four" },
        ],
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: "Secret BATCH_DUP is named more than once in the batch" });
      expect([await state(), await versionRows()]).toEqual(before);
      const deleted = await batch("secrets.batchDelete", {
        secrets: [{ secretKey: "BATCH_DUP" }, { secretKey: "BATCH_DUP" }],
      });
      expect(deleted.status).toBe(200);
      expect(answers(deleted.body).map((s) => s.secretKey)).toEqual(["BATCH_DUP"]);
      expect((await state()).BATCH_DUP).toBeUndefined();
    });
  });

  it("renames rewrite references to the renamed secrets, in the folder and across environments", async () => {
    const staging = { ...prod, environment: "staging" };
    await createSecret(svc, prod, "REF_HOST", { secretValue: "db.internal" });
    await createSecret(svc, prod, "REF_PORT", { secretValue: "5432" });
    await createSecret(svc, prod, "REF_URL", { secretValue: "postgres://${REF_HOST}:${REF_PORT}/app" });
    await createSecret(svc, staging, "REF_REMOTE", { secretValue: "${prod.REF_HOST}" });
    const res = await batch("secrets.batchUpdate", {
      secrets: [
        { secretKey: "REF_HOST", newSecretName: "REF_DB_HOST" },
        { secretKey: "REF_PORT", newSecretName: "REF_DB_PORT", secretValue: "6432" },
      ],
    });
    expect(res.status).toBe(200);
    const raw = async (name: string, place: Place) =>
      endpoints["secrets.get"].response.parse(
        (await svc.endpoint("secrets.get", { params: { secretName: name }, query: place })).body,
      ).secret;
    // One new version for the secret that referred to both, however many renames it saw.
    expect(await raw("REF_URL", prod)).toMatchObject({
      secretValue: "postgres://${REF_DB_HOST}:${REF_DB_PORT}/app",
      version: 2,
    });
    expect(await raw("REF_REMOTE", staging)).toMatchObject({ secretValue: "${prod.REF_DB_HOST}", version: 2 });
    expect(await versionsOf("REF_DB_PORT")).toEqual([1, 2]);
  });

  it("50 concurrent batches over overlapping keys lose nothing and keep version numbers unique", async () => {
    const place = { ...prod, secretPath: "/", environment: "dev" };
    const shared = ["RACE_A", "RACE_B", "RACE_C", "RACE_D"];
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        svc.endpoint("secrets.batchUpdate", {
          body: {
            ...place,
            mode: "upsert",
            // Keys in different orders, so that no two batches lock in the same order by accident.
            secrets: [
              ...(i % 2 === 0 ? shared : [...shared].reverse()).map((secretKey) => ({
                secretKey,
                secretValue: `batch-${i}`,
              })),
              { secretKey: `RACE_OWN_${i}`, secretValue: `own-${i}` },
            ],
          },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const now = await state(place);
    for (const key of shared) {
      const [value, version] = now[key] ?? ["", 0];
      expect(version).toBe(50);
      expect(await versionsOf(key, place)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      // The value is the one written by the batch that took the last version.
      const last = results.find((r) => answers(r.body).some((s) => s.secretKey === key && s.version === 50));
      expect(value).toBe(answers(last?.body).find((s) => s.secretKey === key)?.secretValue);
    }
    for (let i = 0; i < 50; i++) expect(now[`RACE_OWN_${i}`]).toEqual([`own-${i}`, 1]);
  });

  describe("value digests", () => {
    const dev = () => ({ ...prod, environment: "dev", secretPath: "/" });
    const digests = async (place: Place, extra: Record<string, string>, token?: string) => {
      const res = await svc.endpoint(
        "secrets.list",
        { query: { ...place, viewSecretValue: "false", ...extra } },
        token === undefined ? {} : { token },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const { secrets } = endpoints["secrets.list"].response.parse(res.body);
      return Object.fromEntries(secrets.map((s) => [s.secretKey, s]));
    };

    it("equal values have equal digests across a project's environments; values stay withheld", async () => {
      await batch("secrets.batchCreate", {
        ...dev(),
        secrets: [
          { secretKey: "DIGEST_SAME", secretValue: "same-value" },
          { secretKey: "DIGEST_DIFF", secretValue: "dev-value" },
        ],
      });
      await batch("secrets.batchCreate", {
        environment: "staging",
        secrets: [
          { secretKey: "DIGEST_SAME", secretValue: "same-value" },
          { secretKey: "DIGEST_DIFF", secretValue: "staging-value" },
        ],
      });
      const inDev = await digests(dev(), { includeValueDigests: "true" });
      const inStaging = await digests({ ...dev(), environment: "staging" }, { includeValueDigests: "true" });
      const same = inDev.DIGEST_SAME?.secretValueDigest;
      expect(same).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(inStaging.DIGEST_SAME?.secretValueDigest).toBe(same);
      expect(inDev.DIGEST_DIFF?.secretValueDigest).not.toBe(inStaging.DIGEST_DIFF?.secretValueDigest);
      expect(inDev.DIGEST_SAME?.secretValue).toBe("<hidden-by-infisical>");
      expect(inDev.DIGEST_SAME?.secretValueHidden).toBe(true);
      // Another project with the same value gets another digest.
      const other = (await createProject(svc)).id;
      await svc.endpoint("secrets.batchCreate", {
        body: {
          workspaceId: other,
          environment: "dev",
          secretPath: "/",
          secrets: [{ secretKey: "DIGEST_SAME", secretValue: "same-value" }],
        },
      });
      const elsewhere = await digests(
        { workspaceId: other, environment: "dev", secretPath: "/" },
        { includeValueDigests: "true" },
      );
      expect(elsewhere.DIGEST_SAME?.secretValueDigest).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(elsewhere.DIGEST_SAME?.secretValueDigest).not.toBe(same);
      // After a change the digest follows the value.
      await batch("secrets.batchUpdate", {
        ...dev(),
        secrets: [{ secretKey: "DIGEST_DIFF", secretValue: "staging-value" }],
      });
      const again = await digests(dev(), { includeValueDigests: "true", viewSecretValue: "true" });
      expect(again.DIGEST_DIFF?.secretValueDigest).toBe(inStaging.DIGEST_DIFF?.secretValueDigest);
    });

    it("are absent unless asked for, and for a caller who may not read the values", async () => {
      const plain = await digests(dev(), {});
      expect(Object.keys(plain)).toContain("DIGEST_SAME");
      expect(Object.values(plain).some((s) => "secretValueDigest" in s)).toBe(false);
      const token = await memberWith([{ subject: "secrets", action: ["describeSecret"] }]);
      const described = await digests(dev(), { includeValueDigests: "true" }, token);
      expect(Object.keys(described)).toContain("DIGEST_SAME");
      expect(Object.values(described).some((s) => "secretValueDigest" in s)).toBe(false);
      // Readable in one folder only: digests there, none elsewhere.
      const partial = await memberWith([
        { subject: "secrets", action: ["describeSecret"] },
        { subject: "secrets", action: ["readValue"], conditions: { secretName: { $glob: "DIGEST_SAME" } } },
      ]);
      const some = await digests(dev(), { includeValueDigests: "true" }, partial);
      expect(some.DIGEST_SAME?.secretValueDigest).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(some.DIGEST_DIFF && "secretValueDigest" in some.DIGEST_DIFF).toBe(false);
    });
  });
});
