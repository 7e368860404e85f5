import { endpoints } from "@keyhold/contract";
import { recording } from "@keyhold/fixtures";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject } from "../test/project-fixtures.ts";
import { createSecret } from "../test/secret-fixtures.ts";
import { shapeOf, shapesSideBySide } from "../test/shapes.ts";

/**
 * Snapshots and commits answer with the recorded servers' shapes: the mid-2026 server's
 * (infisical-samples-2026-more 090–116) and, where the 2024 server answered the same call, its
 * own (infisical-samples-more 082–097). Two recordings are not followed on purpose: the 2026
 * server refuses identity tokens on the commit routes (115) and answers 500 to the snapshot
 * rollback (102) and to an unknown commit (116); this service serves identities, rolls back and
 * answers 404.
 */
describeEachDatabase("snapshots and commits: the recorded servers' shapes", (kind) => {
  let svc: TestService;
  let projectId: string;
  const staging = () => ({ workspaceId: projectId, environment: "staging", secretPath: "/" });

  const expectShape = (ours: unknown, prefix: string, year: 2024 | 2026 = 2026) => {
    const recorded = recording(year, prefix, "more").body;
    const [a, b] = shapesSideBySide(ours, recorded);
    expect(a).toEqual(b);
    expect(shapeOf(ours)).toEqual(shapeOf(recorded));
  };

  beforeAll(async () => {
    svc = await startService({ kind });
    projectId = (await createProject(svc)).id;
    await createSecret(svc, staging(), "PIT_A", { secretValue: "pit-a-v1" });
  });
  afterAll(async () => svc?.close());

  const list = (query: Record<string, string> = {}) =>
    svc.endpoint("secretSnapshots.list", {
      params: { workspaceId: projectId },
      query: { environment: "staging", path: "/", ...query },
    });
  const commits = () => svc.endpoint("pitCommits.list", { query: { projectId, environment: "staging", path: "/" } });

  it("every recorded snapshot and commit call", async () => {
    const count = await svc.endpoint("pitCommits.count", { query: { projectId, environment: "staging", path: "/" } });
    expectShape(count.body, "091-");
    expectShape((await commits()).body, "092-");
    expectShape((await list()).body, "093-");
    expectShape((await list()).body, "083-", 2024);

    await svc.endpoint("secrets.update", {
      params: { secretName: "PIT_A" },
      body: { ...staging(), secretValue: "pit-a-v2" },
    });
    await createSecret(svc, staging(), "PIT_B", { secretValue: "pit-b-v1" });
    const listed = endpoints["pitCommits.list"].response.parse((await commits()).body).commits;
    expectShape((await commits()).body, "096-");
    expectShape((await list()).body, "097-");
    expectShape((await list()).body, "086-", 2024);
    expectShape((await list({ offset: "1", limit: "1" })).body, "087-", 2024);
    const newer = await svc.endpoint("secretSnapshots.listV2", {
      params: { workspaceId: projectId },
      query: { environment: "staging", path: "/", limit: "2" },
    });
    expectShape(newer.body, "098-");
    const counted = { params: { workspaceId: projectId }, query: { environment: "staging", path: "/" } };
    expectShape((await svc.endpoint("secretSnapshots.count", counted)).body, "099-");
    expectShape((await svc.endpoint("secretSnapshots.countV2", counted)).body, "100-");
    expectShape((await svc.endpoint("secretSnapshots.count", counted)).body, "088-", 2024);

    const snapshots = endpoints["secretSnapshots.list"].response.parse((await list()).body).secretSnapshots;
    const got = await svc.endpoint("secretSnapshots.get", { params: { secretSnapshotId: snapshots[0]?.id ?? "" } });
    expectShape(got.body, "101-");
    const missing = await svc.endpoint("secretSnapshots.get", {
      params: { secretSnapshotId: "7aa23b50-771c-45f0-904a-290e0a41b2bc" },
    });
    expect(missing.status).toBe(404);
    expectShape(missing.body, "103-");

    const [third, , first] = listed;
    const folderId = first?.folderId ?? "";
    const changes = await svc.endpoint("pitCommits.changes", {
      params: { commitId: third?.id ?? "" },
      query: { projectId },
    });
    expectShape(changes.body, "104-");
    const state = await svc.endpoint("pitCommits.folderState", {
      params: { commitId: first?.id ?? "" },
      query: { folderId, projectId },
    });
    expectShape(state.body, "105-");
    const compared = await svc.endpoint("pitCommits.compare", {
      params: { commitId: first?.id ?? "" },
      query: { folderId, environment: "staging", projectId, secretPath: "/" },
    });
    expectShape(compared.body, "106-");
    const reverted = await svc.endpoint("pitCommits.revert", {
      params: { commitId: third?.id ?? "" },
      body: { projectId },
    });
    expectShape(reverted.body, "107-");
    const rolled = await svc.endpoint("pitCommits.rollback", {
      params: { commitId: first?.id ?? "" },
      body: { folderId, environment: "staging", projectId, message: "back to PIT_A v1", deepRollback: false },
    });
    expectShape(rolled.body, "109-");
    expectShape((await commits()).body, "113-");

    // The 2024 snapshot rollback (deprecated and answering 500 on the 2026 server): a new snapshot.
    const rollback = await svc.endpoint("secretSnapshots.rollback", {
      params: { secretSnapshotId: snapshots.at(-1)?.id ?? "" },
    });
    expect(rollback.status).toBe(200);
    expectShape(rollback.body, "091-", 2024);
    const unknown = await svc.endpoint("secretSnapshots.rollback", {
      params: { secretSnapshotId: "c445b412-566e-460e-853e-700e35436677" },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject(recording(2024, "096-", "more").body as object);
  });
});
