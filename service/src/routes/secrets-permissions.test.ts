import { endpoints } from "@keyhold/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ProjectRule } from "../domain/project-permissions.ts";
import { describeEachDatabase, startService, type TestService } from "../test/harness.ts";
import { createProject, memberWithRoles } from "../test/project-fixtures.ts";
import { seedCustomRole } from "../test/project-seed.ts";
import { createFolder, createSecret, createTag, listSecrets, type Place } from "../test/secret-fixtures.ts";

const keysOf = (body: unknown) =>
  endpoints["secrets.list"].response
    .parse(body)
    .secrets.map((s) => s.secretKey)
    .sort();

describeEachDatabase("secret permissions by environment, path, name and tag", (kind) => {
  let svc: TestService;
  let projectId: string;
  let dev: Place;
  let n = 0;

  /** A member whose only role is a custom role with these rules; answers its token. */
  async function memberWith(permissions: ProjectRule[]): Promise<string> {
    n += 1;
    await seedCustomRole(svc, projectId, { slug: `limited-${n}`, name: `Limited ${n}`, permissions });
    return (await memberWithRoles(svc, projectId, [`limited-${n}`], `limited-${n}`)).token;
  }

  beforeAll(async () => {
    svc = await startService({ kind });
    projectId = (await createProject(svc)).id;
    dev = { workspaceId: projectId, environment: "dev", secretPath: "/" };
    const publicTag = await createTag(svc, projectId, "public");
    await createFolder(svc, dev, "/", "app");
    await createFolder(svc, dev, "/app", "api");
    await createFolder(svc, dev, "/", "ops");
    await createSecret(svc, dev, "ROOT_ONE");
    await createSecret(svc, dev, "ALLOWED");
    await createSecret(svc, dev, "TAGGED_PUBLIC", { tagIds: [publicTag] });
    await createSecret(svc, { ...dev, secretPath: "/app" }, "APP_ONE");
    await createSecret(svc, { ...dev, secretPath: "/app/api" }, "API_ONE");
    await createSecret(svc, { ...dev, secretPath: "/ops" }, "OPS_ONE");
    await createSecret(svc, { ...dev, environment: "staging" }, "STAGING_ONE");
  });
  afterAll(async () => svc?.close());

  it("a role limited to one environment reads there and is refused elsewhere", async () => {
    const token = await memberWith([{ subject: "secrets", action: ["read"], conditions: { environment: "staging" } }]);
    const staging = await listSecrets(svc, { ...dev, environment: "staging" }, {}, { token });
    expect(staging.status).toBe(200);
    expect(keysOf(staging.body)).toEqual(["STAGING_ONE"]);
    const devList = await listSecrets(svc, dev, {}, { token });
    expect(devList.status).toBe(200);
    expect(keysOf(devList.body)).toEqual([]);
    const get = await svc.endpoint("secrets.get", { params: { secretName: "ROOT_ONE" }, query: dev }, { token });
    expect(get.status).toBe(403);
    expect(get.body).toMatchObject({ error: "PermissionDenied" });
  });

  it("a role limited by a path glob sees only the folders it matches", async () => {
    const token = await memberWith([
      { subject: "secrets", action: ["read"], conditions: { environment: "dev", secretPath: { $glob: "/app/**" } } },
    ]);
    const deep = await listSecrets(svc, dev, { recursive: "true" }, { token });
    expect(deep.status).toBe(200);
    expect(keysOf(deep.body)).toEqual(["API_ONE", "APP_ONE"]);
    const app = await listSecrets(svc, { ...dev, secretPath: "/app" }, {}, { token });
    expect(keysOf(app.body)).toEqual(["APP_ONE"]);
    const ops = await svc.endpoint(
      "secrets.get",
      {
        params: { secretName: "OPS_ONE" },
        query: { ...dev, secretPath: "/ops" },
      },
      { token },
    );
    expect(ops.status).toBe(403);
    const create = await svc.endpoint(
      "secrets.create",
      { params: { secretName: "NEW_IN_APP" }, body: { ...dev, secretPath: "/app", secretValue: "x" } },
      { token },
    );
    expect(create.status).toBe(403);
  });

  it("a role limited by secret name sees and changes only those secrets", async () => {
    const token = await memberWith([
      {
        subject: "secrets",
        action: ["read", "edit", "delete", "create"],
        conditions: { environment: "dev", secretName: { $in: ["ALLOWED", "NEW_ALLOWED"] } },
      },
    ]);
    expect(keysOf((await listSecrets(svc, dev, {}, { token })).body)).toEqual(["ALLOWED"]);
    const other = await svc.endpoint(
      "secrets.update",
      { params: { secretName: "ROOT_ONE" }, body: { ...dev, secretValue: "no" } },
      { token },
    );
    expect(other.status).toBe(403);
    const own = await svc.endpoint(
      "secrets.update",
      { params: { secretName: "ALLOWED" }, body: { ...dev, secretValue: "yes" } },
      { token },
    );
    expect(own.status).toBe(200);
    // Renaming needs edit on the new name as well.
    const rename = await svc.endpoint(
      "secrets.update",
      { params: { secretName: "ALLOWED" }, body: { ...dev, newSecretName: "ELSEWHERE" } },
      { token },
    );
    expect(rename.status).toBe(403);
    const create = await svc.endpoint(
      "secrets.create",
      { params: { secretName: "FORBIDDEN_NAME" }, body: { ...dev, secretValue: "x" } },
      { token },
    );
    expect(create.status).toBe(403);
    const remove = await svc.endpoint("secrets.delete", { params: { secretName: "ROOT_ONE" }, body: dev }, { token });
    expect(remove.status).toBe(403);
  });

  it("a role limited by tag sees only tagged secrets", async () => {
    const token = await memberWith([
      { subject: "secrets", action: ["read"], conditions: { environment: "dev", secretTags: { $in: ["public"] } } },
    ]);
    const res = await listSecrets(svc, dev, {}, { token });
    expect(res.status).toBe(200);
    expect(keysOf(res.body)).toEqual(["TAGGED_PUBLIC"]);
    const filtered = await listSecrets(svc, dev, { tagSlugs: "public" }, { token });
    expect(keysOf(filtered.body)).toEqual(["TAGGED_PUBLIC"]);
  });

  it("describe without readValue: values hidden with the marker, a list asking for values refused", async () => {
    const token = await memberWith([
      { subject: "secrets", action: ["describeSecret"], conditions: { environment: "dev" } },
    ]);
    const refused = await listSecrets(svc, dev, {}, { token });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: "PermissionDenied" });
    const masked = await listSecrets(svc, dev, { viewSecretValue: "false" }, { token });
    expect(masked.status).toBe(200);
    const secrets = endpoints["secrets.list"].response.parse(masked.body).secrets;
    expect(secrets.length).toBe(3);
    for (const s of secrets) expect(s).toMatchObject({ secretValue: "<hidden-by-infisical>", secretValueHidden: true });
    const one = await svc.endpoint("secrets.get", { params: { secretName: "ROOT_ONE" }, query: dev }, { token });
    expect(one.status).toBe(200);
    const byId = await svc.endpoint(
      "secrets.getById",
      { params: { secretId: endpoints["secrets.get"].response.parse(one.body).secret.id } },
      { token },
    );
    expect(byId.status).toBe(403);
    expect(endpoints["secrets.get"].response.parse(one.body).secret).toMatchObject({
      secretKey: "ROOT_ONE",
      secretValue: "<hidden-by-infisical>",
      secretValueHidden: true,
    });
    // Recursive lists leave out sub-folder secrets whose values may not be read, instead of refusing.
    const both = await memberWith([
      {
        subject: "secrets",
        action: ["describeSecret", "readValue"],
        conditions: { environment: "dev", secretPath: "/" },
      },
      {
        subject: "secrets",
        action: ["describeSecret"],
        conditions: { environment: "dev", secretPath: { $glob: "/app/**" } },
      },
    ]);
    const deep = await listSecrets(svc, dev, { recursive: "true" }, { token: both });
    expect(deep.status).toBe(200);
    expect(keysOf(deep.body)).toEqual(["ALLOWED", "ROOT_ONE", "TAGGED_PUBLIC"]);
  });

  it("versions need secret-rollback read; values follow readValue", async () => {
    const id = (
      await svc.app.db.selectFrom("secrets").select("id").where("key", "=", "ROOT_ONE").executeTakeFirstOrThrow()
    ).id;
    const noRollback = await memberWith([{ subject: "secrets", action: ["read"] }]);
    const refused = await svc.endpoint(
      "secretVersions.list",
      { params: { secretId: id }, query: { offset: "0", limit: "5" } },
      { token: noRollback },
    );
    expect(refused.status).toBe(403);
    const describeOnly = await memberWith([
      { subject: "secrets", action: ["describeSecret"] },
      { subject: "secret-rollback", action: ["read"] },
    ]);
    const hidden = await svc.endpoint(
      "secretVersions.list",
      { params: { secretId: id }, query: { offset: "0", limit: "5" } },
      { token: describeOnly },
    );
    expect(hidden.status).toBe(200);
    const versions = endpoints["secretVersions.list"].response.parse(hidden.body).secretVersions;
    expect(versions[0]).toMatchObject({ secretValue: "<hidden-by-infisical>", secretValueHidden: true });
  });

  it("a member with no rule about secrets is refused the list; a non-member is told it is not a member", async () => {
    const viewerless = await memberWith([{ subject: "tags", action: ["read"] }]);
    const res = await listSecrets(svc, dev, {}, { token: viewerless });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: "PermissionDenied" });
    const outsider = await memberWithRoles(svc, (await createProject(svc)).id, ["admin"], "outsider");
    const foreign = await listSecrets(svc, dev, {}, { token: outsider.token });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({
      error: "ProjectMembershipNotFound",
      message: `You are not a member of this project with ID ${projectId}. Please assign this identity to the project with the appropriate permissions, then try again.`,
    });
  });
});
