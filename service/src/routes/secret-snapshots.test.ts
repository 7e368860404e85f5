import { endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject, memberWithRoles } from "../test/project-fixtures.ts";
import { createFolder, createSecret, createTag, listSecrets, type Place } from "../test/secret-fixtures.ts";

/** Point-in-time recovery: what a rollback puts back, through the real HTTP routes and database. */
describeEachDatabase("snapshots and point-in-time rollback", (kind) => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startService({ kind });
  });
  afterAll(async () => svc?.close());

  async function newPlace(): Promise<Place> {
    return { workspaceId: (await createProject(svc)).id, environment: "dev", secretPath: "/" };
  }

  async function snapshots(place: Place, path = place.secretPath) {
    const res = await svc.endpoint("secretSnapshots.list", {
      params: { workspaceId: place.workspaceId },
      query: { environment: place.environment, path, limit: "100" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return endpoints["secretSnapshots.list"].response.parse(res.body).secretSnapshots;
  }

  async function folderContents(place: Place) {
    const res = await listSecrets(svc, place);
    expect(res.status).toBe(200);
    const { secrets } = endpoints["secrets.list"].response.parse(res.body);
    return Object.fromEntries(
      secrets.map((s) => [
        s.secretKey,
        { value: s.secretValue, comment: s.secretComment, tags: (s.tags ?? []).map((t) => t.slug).sort() },
      ]),
    );
  }

  const update = (place: Place, name: string, body: Record<string, unknown>) =>
    svc.endpoint("secrets.update", { params: { secretName: name }, body: { ...place, ...body } });
  const remove = (place: Place, name: string) =>
    svc.endpoint("secrets.delete", { params: { secretName: name }, body: place });

  it("records one snapshot per change, newest first, and counts them", async () => {
    const place = await newPlace();
    await createSecret(svc, place, "A");
    await update(place, "A", { secretValue: "a2" });
    await createSecret(svc, place, "B");
    await remove(place, "B");
    const list = await snapshots(place);
    expect(list).toHaveLength(4);
    expect(new Date(list[0]?.createdAt ?? 0).getTime()).toBeGreaterThanOrEqual(
      new Date(list[3]?.createdAt ?? 0).getTime(),
    );
    const count = await svc.endpoint("secretSnapshots.count", {
      params: { workspaceId: place.workspaceId },
      query: { environment: "dev", path: "/" },
    });
    expect(count.body).toEqual({ count: 4 });
    const commits = await svc.endpoint("pitCommits.list", {
      query: { projectId: place.workspaceId, environment: "dev", path: "/" },
    });
    expect(commits.status).toBe(200);
    const parsed = endpoints["pitCommits.list"].response.parse(commits.body);
    expect(parsed.commits.map((c) => c.message)).toEqual([
      "Secret Deleted",
      "Secret Created",
      "Secret Updated",
      "Secret Created",
    ]);
    expect(parsed.commits.map((c) => c.commitId)).toEqual(["4", "3", "2", "1"]);
    expect(parsed.commits[0]?.actorType).toBe("identity");
    expect(parsed.total).toBe(4);
  });

  it("restores exactly the recorded state: values, comments, tags; deleted secrets return, added ones go", async () => {
    const place = await newPlace();
    const red = await createTag(svc, place.workspaceId, "red");
    const blue = await createTag(svc, place.workspaceId, "blue");
    await createSecret(svc, place, "KEEP", { secretValue: "keep-1", secretComment: "first", tagIds: [red] });
    await createSecret(svc, place, "GONE", { secretValue: "gone-1" });
    await createSecret(svc, place, "RENAMED", { secretValue: "r-1" });
    const before = await folderContents(place);
    const [good] = await snapshots(place);

    await update(place, "KEEP", { secretValue: "bad", secretComment: "changed", tagIds: [blue] });
    await remove(place, "GONE");
    await update(place, "RENAMED", { newSecretName: "RENAMED_LATER" });
    await createSecret(svc, place, "ADDED_LATER");
    expect(Object.keys(await folderContents(place)).sort()).toEqual(["ADDED_LATER", "KEEP", "RENAMED_LATER"]);

    const res = await svc.endpoint("secretSnapshots.rollback", { params: { secretSnapshotId: good?.id ?? "" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const made = endpoints["secretSnapshots.rollback"].response.parse(res.body).secretSnapshot;
    expect(made.id).not.toBe(good?.id);
    expect(await folderContents(place)).toEqual(before);
    // The rollback is a snapshot of its own, at the top of the list.
    expect((await snapshots(place))[0]?.id).toBe(made.id);

    // Each restored secret has a new version with the old value; the returning one keeps its id.
    const got = await svc.endpoint("secrets.get", {
      params: { secretName: "KEEP" },
      query: { workspaceId: place.workspaceId, environment: "dev", secretPath: "/" },
    });
    const keep = endpoints["secrets.get"].response.parse(got.body).secret;
    expect(keep.version).toBe(3);
    expect(keep.secretValue).toBe("keep-1");
  });

  it("a rollback can itself be rolled back", async () => {
    const place = await newPlace();
    await createSecret(svc, place, "X", { secretValue: "x-1" });
    const [first] = await snapshots(place);
    await update(place, "X", { secretValue: "x-2" });
    await createSecret(svc, place, "Y", { secretValue: "y-1" });
    const after = await folderContents(place);
    const [beforeRollback] = await snapshots(place);

    await svc.endpoint("secretSnapshots.rollback", { params: { secretSnapshotId: first?.id ?? "" } });
    expect(await folderContents(place)).toEqual({ X: { value: "x-1", comment: "", tags: [] } });

    const undo = await svc.endpoint("secretSnapshots.rollback", {
      params: { secretSnapshotId: beforeRollback?.id ?? "" },
    });
    expect(undo.status).toBe(200);
    expect(await folderContents(place)).toEqual(after);
  });

  it("puts back imports and sub-folders with their secrets, recursively", async () => {
    const place = await newPlace();
    const { workspaceId } = place;
    await createSecret(svc, { ...place, environment: "prod" }, "SHARED");
    const imported = await svc.endpoint("secretImports.create", {
      body: { workspaceId, environment: "dev", path: "/", import: { environment: "prod", path: "/" } },
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    await createFolder(svc, place, "/", "app");
    await createFolder(svc, place, "/app", "api");
    await createSecret(svc, { ...place, secretPath: "/app" }, "APP_KEY", { secretValue: "app-1" });
    await createSecret(svc, { ...place, secretPath: "/app/api" }, "API_KEY", { secretValue: "api-1" });
    await createSecret(svc, place, "ROOT_KEY", { secretValue: "root-1" });
    const [good] = await snapshots(place);

    // The bad change: the import removed, the app folder deleted (and everything in it), a new folder.
    const importId = endpoints["secretImports.create"].response.parse(imported.body).secretImport.id;
    const removed = await svc.endpoint("secretImports.delete", {
      params: { secretImportId: importId },
      body: { workspaceId, environment: "dev", path: "/" },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const app = await svc.endpoint("folders.list", { query: { workspaceId, environment: "dev", path: "/" } });
    const appId = endpoints["folders.list"].response.parse(app.body).folders[0]?.id ?? "";
    const deleted = await svc.endpoint("folders.delete", {
      params: { folderId: appId },
      body: { workspaceId, environment: "dev", path: "/" },
    });
    expect(deleted.status).toBe(200);
    await createFolder(svc, place, "/", "stray");

    const res = await svc.endpoint("secretSnapshots.rollback", { params: { secretSnapshotId: good?.id ?? "" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const folders = await svc.endpoint("folders.list", {
      query: { workspaceId, environment: "dev", path: "/", recursive: "true" },
    });
    const paths = endpoints["folders.list"].response
      .parse(folders.body)
      .folders.map((f) => f.relativePath)
      .sort();
    expect(paths).toEqual(["/app", "/app/api"]);
    expect(await folderContents({ ...place, secretPath: "/app" })).toEqual({
      APP_KEY: { value: "app-1", comment: "", tags: [] },
    });
    expect(await folderContents({ ...place, secretPath: "/app/api" })).toEqual({
      API_KEY: { value: "api-1", comment: "", tags: [] },
    });
    const imports = await svc.endpoint("secretImports.list", { query: { workspaceId, environment: "dev", path: "/" } });
    const restored = endpoints["secretImports.list"].response.parse(imports.body).secretImports;
    expect(restored.map((i) => [i.id, i.importEnv.slug, i.importPath])).toEqual([[importId, "prod", "/"]]);
  });

  it("the commit routes: changes, folder state, compare, revert and rollback", async () => {
    const place = await newPlace();
    const projectId = place.workspaceId;
    await createSecret(svc, place, "PIT_A", { secretValue: "pit-a-v1" });
    await update(place, "PIT_A", { secretValue: "pit-a-v2" });
    await createSecret(svc, place, "PIT_B", { secretValue: "pit-b-v1" });
    const listed = endpoints["pitCommits.list"].response.parse(
      (await svc.endpoint("pitCommits.list", { query: { projectId, environment: "dev", path: "/" } })).body,
    );
    const [third, , first] = listed.commits;
    const folderId = first?.folderId ?? "";

    const changes = await svc.endpoint("pitCommits.changes", {
      params: { commitId: third?.id ?? "" },
      query: { projectId },
    });
    const change = endpoints["pitCommits.changes"].response.parse(changes.body).changes;
    expect(change.isLatest).toBe(true);
    expect(change.changes.map((c) => [c.changeType, c.secretKey, c.versions?.[0]?.secretValue])).toEqual([
      ["add", "PIT_B", "pit-b-v1"],
    ]);

    const state = await svc.endpoint("pitCommits.folderState", {
      params: { commitId: first?.id ?? "" },
      query: { projectId, folderId },
    });
    expect(
      endpoints["pitCommits.folderState"].response.parse(state.body).map((i) => [i.secretKey, i.secretVersion]),
    ).toEqual([["PIT_A", 1]]);

    const compared = await svc.endpoint("pitCommits.compare", {
      params: { commitId: first?.id ?? "" },
      query: { projectId, folderId, environment: "dev", secretPath: "/" },
    });
    const [root] = endpoints["pitCommits.compare"].response.parse(compared.body);
    expect(root?.changes.map((c) => [c.changeType, c.secretKey, c.versions?.map((v) => v.secretValue)])).toEqual([
      ["update", "PIT_A", ["pit-a-v2", "pit-a-v1"]],
      ["delete", "PIT_B", ["pit-b-v1"]],
    ]);

    const reverted = await svc.endpoint("pitCommits.revert", {
      params: { commitId: third?.id ?? "" },
      body: { projectId },
    });
    expect(reverted.status, JSON.stringify(reverted.body)).toBe(200);
    const revert = endpoints["pitCommits.revert"].response.parse(reverted.body);
    expect(revert.changesReverted).toBe(1);
    expect(revert.revertCommitId).not.toBe(third?.id);
    expect(Object.keys(await folderContents(place))).toEqual(["PIT_A"]);

    const rolled = await svc.endpoint("pitCommits.rollback", {
      params: { commitId: first?.id ?? "" },
      body: { projectId, folderId, environment: "dev", message: "back to PIT_A v1" },
    });
    expect(rolled.body).toEqual({ success: true, secretChangesCount: 1, folderChangesCount: 0, totalChanges: 1 });
    expect(await folderContents(place)).toEqual({ PIT_A: { value: "pit-a-v1", comment: "", tags: [] } });
    const after = endpoints["pitCommits.list"].response.parse(
      (await svc.endpoint("pitCommits.list", { query: { projectId, environment: "dev", path: "/" } })).body,
    );
    expect(after.commits.slice(0, 2).map((c) => c.message)).toEqual(["back to PIT_A v1", "Revert commit changes"]);
  });

  it("keeps only the project's pitVersionLimit newest commits of a folder", async () => {
    const place = await newPlace();
    const limited = await svc.endpoint("projects.update", {
      params: { workspaceId: place.workspaceId },
      body: { pitVersionLimit: 3 },
    });
    expect(limited.status, JSON.stringify(limited.body)).toBe(200);
    await createSecret(svc, place, "P", { secretValue: "p-1" });
    await createSecret(svc, place, "Q", { secretValue: "q-1" });
    await remove(place, "Q");
    for (const value of ["p-2", "p-3", "p-4"]) await update(place, "P", { secretValue: value });
    const list = await snapshots(place);
    expect(list).toHaveLength(3);
    // The oldest kept one still rolls back: P at p-2, Q gone.
    await svc.endpoint("secretSnapshots.rollback", { params: { secretSnapshotId: list[2]?.id ?? "" } });
    expect(await folderContents(place)).toEqual({ P: { value: "p-2", comment: "", tags: [] } });
  });

  it("serves identities on the commit routes; a viewer reads history but may not roll back", async () => {
    const place = await newPlace();
    await createSecret(svc, place, "V", { secretValue: "v-1" });
    const [snap] = await snapshots(place);
    const viewer = await memberWithRoles(svc, place.workspaceId, ["viewer"], "viewer");
    const member = await memberWithRoles(svc, place.workspaceId, ["member"], "member");
    const asViewer = { token: viewer.token };
    const listed = await svc.endpoint(
      "pitCommits.list",
      { query: { projectId: place.workspaceId, environment: "dev", path: "/" } },
      asViewer,
    );
    expect(listed.status).toBe(200);
    const refused = await svc.endpoint(
      "secretSnapshots.rollback",
      { params: { secretSnapshotId: snap?.id ?? "" } },
      asViewer,
    );
    expect(refused.status).toBe(403);
    const commit = endpoints["pitCommits.list"].response.parse(listed.body).commits[0];
    const refusedToo = await svc.endpoint(
      "pitCommits.rollback",
      {
        params: { commitId: commit?.id ?? "" },
        body: { projectId: place.workspaceId, folderId: commit?.folderId, environment: "dev" },
      },
      asViewer,
    );
    expect(refusedToo.status).toBe(403);
    const allowed = await svc.endpoint(
      "secretSnapshots.rollback",
      { params: { secretSnapshotId: snap?.id ?? "" } },
      { token: member.token },
    );
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);

    // An identity of the organisation that is not a member of the project: refused as for any project route.
    const outsider = await svc.endpoint(
      "secretSnapshots.get",
      { params: { secretSnapshotId: snap?.id ?? "" } },
      {
        token: (await memberWithRoles(svc, (await createProject(svc)).id, ["admin"], "elsewhere")).token,
      },
    );
    expect(outsider.status).toBe(403);
  });

  it("values show only to a caller who may read them", async () => {
    const place = await newPlace();
    await createSecret(svc, place, "HIDDEN", { secretValue: "top-secret" });
    const [snap] = await snapshots(place);
    const own = await svc.endpoint("secretSnapshots.get", { params: { secretSnapshotId: snap?.id ?? "" } });
    const mine = endpoints["secretSnapshots.get"].response.parse(own.body).secretSnapshot.secretVersions[0];
    expect(mine?.secretValue).toBe("top-secret");
    expect(mine?.secretValueHidden).toBe(false);

    // A preview asks without values, and a reveal for one key only.
    await update(place, "HIDDEN", { secretValue: "changed" });
    await createSecret(svc, place, "OTHER", { secretValue: "other" });
    const query = { projectId: place.workspaceId, folderId: snap?.folderId ?? "", environment: "dev", secretPath: "/" };
    const masked = await svc.endpoint("pitCommits.compare", {
      params: { commitId: snap?.id ?? "" },
      query: { ...query, viewSecretValue: "false" },
    });
    const values = endpoints["pitCommits.compare"].response
      .parse(masked.body)
      .flatMap((f) => f.changes.flatMap((c) => (c.versions ?? []).map((v) => [v.secretValue, v.isRedacted])));
    expect(values).toEqual([
      ["<hidden-by-infisical>", true],
      ["<hidden-by-infisical>", true],
      ["<hidden-by-infisical>", true],
    ]);
    const one = await svc.endpoint("pitCommits.compare", {
      params: { commitId: snap?.id ?? "" },
      query: { ...query, secretKey: "HIDDEN" },
    });
    const revealed = endpoints["pitCommits.compare"].response.parse(one.body)[0]?.changes;
    expect(revealed?.map((c) => c.versions?.map((v) => v.secretValue))).toEqual([["changed", "top-secret"]]);
  });

  it("answers 404 for unknown snapshots and commits", async () => {
    const place = await newPlace();
    const unknown = "0d3a4b4e-8f8e-4a57-a6a8-3a2b9b0f0c11";
    const get = await svc.endpoint("secretSnapshots.get", { params: { secretSnapshotId: unknown } });
    expect(get.status).toBe(404);
    expect(get.body).toMatchObject({ message: "Snapshot not found" });
    const rollback = await svc.endpoint("secretSnapshots.rollback", { params: { secretSnapshotId: unknown } });
    expect(rollback.status).toBe(404);
    const commit = await svc.endpoint("pitCommits.rollback", {
      params: { commitId: unknown },
      body: { projectId: place.workspaceId, folderId: unknown, environment: "dev" },
    });
    expect(commit.status).toBe(404);
    const missingFolder = await svc.endpoint("pitCommits.list", {
      query: { projectId: place.workspaceId, environment: "dev", path: "/nowhere" },
    });
    expect(missingFolder.status).toBe(404);
  });
});
