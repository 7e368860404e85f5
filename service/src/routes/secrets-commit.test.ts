import { endpoints } from "@keyhold/contract";
import { describe, expect, it } from "vitest";
import { batchFixture } from "../test/batch-fixtures.ts";
import { describeEachDatabase } from "../test/harness.ts";
import { createSecret, type Place } from "../test/secret-fixtures.ts";

/**
 * `POST /api/v1/pit/batch/commit`: a folder's mixed change set, all or nothing, recorded as one
 * commit with its message; and the batches, each one commit (a failing one none).
 */
describeEachDatabase("a folder's changes saved as one commit", (kind) => {
  const f = batchFixture(kind);
  let folders = 0;

  /** A fresh folder under prod's root, so each test counts its own commits. */
  async function newFolder(): Promise<Place> {
    folders += 1;
    const name = `commit-${folders}`;
    const res = await f.svc().endpoint("folders.create", {
      body: { workspaceId: f.projectId(), environment: "prod", path: "/", name },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { workspaceId: f.projectId(), environment: "prod", secretPath: `/${name}` };
  }

  const commitChanges = (place: Place, message: string, secrets: Record<string, unknown>, token?: string) =>
    f.svc().endpoint(
      "pitBatch.commit",
      {
        body: {
          projectId: place.workspaceId,
          environment: place.environment,
          secretPath: place.secretPath,
          message,
          changes: { secrets },
        },
      },
      token === undefined ? {} : { token },
    );

  async function commits(place: Place) {
    const res = await f.svc().endpoint("pitCommits.list", {
      query: { projectId: place.workspaceId, environment: place.environment, path: place.secretPath, limit: "100" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return endpoints["pitCommits.list"].response.parse(res.body).commits;
  }

  /** Everything a failed change set must leave as it was. */
  const trace = async (place: Place) => [await f.state(place), await f.versionRows(), (await commits(place)).length];

  it("applies deletes, then updates and renames, then creates, as one commit with the message", async () => {
    const place = await newFolder();
    for (const name of ["KEEP", "EDIT_A", "EDIT_B", "OLD_NAME", "GONE", "REBORN"]) {
      await createSecret(f.svc(), place, name, { secretValue: `${name}-v1` });
    }
    const before = (await commits(place)).length;
    const res = await commitChanges(place, "Rotate the keys", {
      create: [
        { secretKey: "REBORN", secretValue: "reborn-v2" },
        { secretKey: "BRAND_NEW", secretValue: "new-v1", secretComment: "added" },
      ],
      update: [
        { secretKey: "EDIT_A", secretValue: "edit-a-v2" },
        { secretKey: "EDIT_B", secretValue: "edit-b-v2", secretComment: "changed" },
        // Into the name the delete frees.
        { secretKey: "OLD_NAME", newSecretName: "GONE" },
      ],
      delete: [{ secretKey: "GONE" }, { secretKey: "REBORN" }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const answer = endpoints["pitBatch.commit"].response.parse(res.body);
    expect(answer.commit.message).toBe("Rotate the keys");
    expect(answer.secrets.deleted.map((s) => [s.secretKey, s.secretValue]).sort()).toEqual([
      ["GONE", "GONE-v1"],
      ["REBORN", "REBORN-v1"],
    ]);
    expect(answer.secrets.updated.map((s) => s.secretKey).sort()).toEqual(["EDIT_A", "EDIT_B", "GONE"]);
    expect(answer.secrets.created.map((s) => [s.secretKey, s.secretValue, s.version]).sort()).toEqual([
      ["BRAND_NEW", "new-v1", 1],
      ["REBORN", "reborn-v2", 1],
    ]);
    expect(await f.state(place)).toEqual({
      KEEP: ["KEEP-v1", 1],
      EDIT_A: ["edit-a-v2", 2],
      EDIT_B: ["edit-b-v2", 2],
      GONE: ["OLD_NAME-v1", 2],
      REBORN: ["reborn-v2", 1],
      BRAND_NEW: ["new-v1", 1],
    });
    const after = await commits(place);
    expect(after).toHaveLength(before + 1);
    expect(after[0]).toEqual(answer.commit);
  });

  describe("a failing item leaves no trace: no secret, version or commit", () => {
    it("a create of a key the folder holds (after the deletes and renames)", async () => {
      const place = await newFolder();
      await createSecret(f.svc(), place, "HELD");
      await createSecret(f.svc(), place, "RENAMED_FROM");
      const before = await trace(place);
      const res = await commitChanges(place, "Bad", {
        update: [{ secretKey: "RENAMED_FROM", newSecretName: "TAKEN_BY_RENAME", secretValue: "x" }],
        create: [
          { secretKey: "FRESH", secretValue: "fresh" },
          { secretKey: "TAKEN_BY_RENAME", secretValue: "dup" },
        ],
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "BadRequest", message: "Secret already exists: TAKEN_BY_RENAME" });
      expect(await trace(place)).toEqual(before);
    });

    it("an update of a missing key, after a delete that went through", async () => {
      const place = await newFolder();
      await createSecret(f.svc(), place, "DOOMED");
      const before = await trace(place);
      const res = await commitChanges(place, "Bad", {
        delete: [{ secretKey: "DOOMED" }],
        update: [{ secretKey: "NOT_THERE", secretValue: "x" }],
      });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        error: "NotFound",
        message: `Secret does not exist: NOT_THERE in path ${place.secretPath}`,
      });
      expect(await trace(place)).toEqual(before);
    });

    it("a delete of a missing key names the keys found", async () => {
      const place = await newFolder();
      await createSecret(f.svc(), place, "THERE");
      const before = await trace(place);
      const res = await commitChanges(place, "Bad", {
        delete: [{ secretKey: "THERE" }, { secretKey: "NOT_THERE" }],
        create: [{ secretKey: "OTHER", secretValue: "o" }],
      });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: "NotFound", message: "One or more secrets does not exist: THERE" });
      expect(await trace(place)).toEqual(before);
    });

    it("an item the caller may not write (the others it may)", async () => {
      const place = await newFolder();
      await createSecret(f.svc(), place, "EDITABLE");
      const token = await f.memberWith([{ subject: "secrets", action: ["read", "edit"] }]);
      const before = await trace(place);
      const res = await commitChanges(
        place,
        "Bad",
        { update: [{ secretKey: "EDITABLE", secretValue: "e2" }], create: [{ secretKey: "NOPE", secretValue: "n" }] },
        token,
      );
      expect(res.status).toBe(403);
      expect(await trace(place)).toEqual(before);
    });

    it("an empty change set (400) and a message over 256 characters (422)", async () => {
      const place = await newFolder();
      const empty = await commitChanges(place, "Nothing", {});
      expect(empty.status).toBe(400);
      expect(empty.body).toMatchObject({ message: "No changes to commit" });
      const long = await commitChanges(place, "m".repeat(257), { create: [{ secretKey: "X", secretValue: "x" }] });
      expect(long.status).toBe(422);
      expect(await f.state(place)).toEqual({});
    });
  });

  it("a rollback of the folder to the commit before puts everything back", async () => {
    const place = await newFolder();
    for (const name of ["R_EDIT", "R_RENAME", "R_DELETE"]) {
      await createSecret(f.svc(), place, name, { secretValue: `${name}-v1` });
    }
    const before = await f.state(place);
    const [previous] = await commits(place);
    const res = await commitChanges(place, "To be undone", {
      update: [
        { secretKey: "R_EDIT", secretValue: "edited" },
        { secretKey: "R_RENAME", newSecretName: "R_RENAMED" },
      ],
      delete: [{ secretKey: "R_DELETE" }],
      create: [{ secretKey: "R_NEW", secretValue: "new" }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rolled = await f.svc().endpoint("pitCommits.rollback", {
      params: { commitId: previous?.id ?? "" },
      body: { projectId: place.workspaceId, folderId: previous?.folderId ?? "", environment: "prod" },
    });
    expect(rolled.status, JSON.stringify(rolled.body)).toBe(200);
    const restored = await f.state(place);
    expect(Object.fromEntries(Object.entries(restored).map(([k, [v]]) => [k, v]))).toEqual(
      Object.fromEntries(Object.entries(before).map(([k, [v]]) => [k, v])),
    );
  });

  it("each batch endpoint records one commit of its folder; a failing batch none", async () => {
    const place = await newFolder();
    const at = { workspaceId: place.workspaceId, environment: "prod", secretPath: place.secretPath };
    const count = async () => (await commits(place)).length;
    const start = await count();
    const created = await f.batch("secrets.batchCreate", {
      ...at,
      secrets: [
        { secretKey: "B_1", secretValue: "1" },
        { secretKey: "B_2", secretValue: "2" },
      ],
    });
    expect(created.status).toBe(200);
    expect(await count()).toBe(start + 1);
    const updated = await f.batch("secrets.batchUpdate", {
      ...at,
      secrets: [
        { secretKey: "B_1", secretValue: "1b" },
        { secretKey: "B_2", newSecretName: "B_3" },
      ],
    });
    expect(updated.status).toBe(200);
    expect(await count()).toBe(start + 2);
    const failed = await f.batch("secrets.batchDelete", {
      ...at,
      secrets: [{ secretKey: "B_1" }, { secretKey: "MISSING" }],
    });
    expect(failed.status).toBe(404);
    expect(await count()).toBe(start + 2);
    const deleted = await f.batch("secrets.batchDelete", {
      ...at,
      secrets: [{ secretKey: "B_1" }, { secretKey: "B_3" }],
    });
    expect(deleted.status).toBe(200);
    const list = await commits(place);
    expect(list.slice(0, 3).map((c) => c.message)).toEqual(["Secrets Deleted", "Secrets Updated", "Secrets Created"]);
  });

  it("a rename that rewrites a reference in another folder records one commit there too", async () => {
    const place = await newFolder();
    const other = await newFolder();
    await createSecret(f.svc(), place, "TARGET", { secretValue: "t" });
    await createSecret(f.svc(), other, "USER", { secretValue: `\${prod.${place.secretPath.slice(1)}.TARGET}` });
    const before = (await commits(other)).length;
    const res = await commitChanges(place, "Rename the target", {
      update: [{ secretKey: "TARGET", newSecretName: "TARGET_2" }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await commits(other);
    expect(after).toHaveLength(before + 1);
    expect(after[0]?.message).toBe("Rename the target");
  });
});
