import { randomUUID } from "node:crypto";
import { endpoints } from "@keyhold/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { identityWithToken } from "../test/fixtures.ts";
import { type CallResult, describeEachDatabase, startService, type TestService } from "../test/harness.ts";

/**
 * Which project calls each project role may make, through the real endpoints, with each
 * holder's own token: the four predefined roles, a custom role with conditions, and an
 * identity of the organisation that is not a member. 200 is allowed, 403 refused.
 */

const holders = ["member", "viewer", "no-access", "custom", "non-member", "admin"] as const;
type Holder = (typeof holders)[number];

const ok = 200;
const no = 403;

/** The rules of the custom role: environments, and identities and secrets under conditions. */
function customRules(namedIdentities: string[]) {
  return [
    { subject: "environments", action: ["read", "create"] },
    { subject: "identity", action: ["read", "create", "edit"], conditions: { identityId: { $in: namedIdentities } } },
    { subject: "secrets", action: ["read"], conditions: { environment: "dev", secretPath: { $glob: "/app/**" } } },
  ];
}

const devAppSecrets = { environment: "dev", secretPath: { $glob: "/app/**" } };

describeEachDatabase("project permission matrix", (kind) => {
  let svc: TestService;
  let projectId: string;
  const tokens = {} as Record<Holder, string>;
  /** A viewer member of the project: the identity privileges are granted to. */
  let named: string;
  /** Not a member: the identity the custom role may add. */
  let addable: string;

  async function newIdentity(name: string): Promise<string> {
    const res = await svc.endpoint("identities.create", {
      body: { name: `${name}-${randomUUID().slice(0, 6)}`, organizationId: svc.info.orgId, role: "no-access" },
    });
    expect(res.status).toBe(200);
    return endpoints["identities.create"].response.parse(res.body).identity.id;
  }

  async function addMember(identityId: string, role: string) {
    const res = await svc.endpoint("identityMemberships.add", {
      params: { projectId, identityId },
      body: { roles: [{ role, isTemporary: false }] },
    });
    expect(res.status).toBe(200);
  }

  beforeAll(async () => {
    svc = await startService({ kind });
    const created = await svc.endpoint("projects.create", { body: { projectName: "Matrix" } });
    expect(created.status).toBe(200);
    projectId = endpoints["projects.create"].response.parse(created.body).project.id;

    named = await newIdentity("named");
    addable = await newIdentity("addable");
    await addMember(named, "viewer");
    const role = await svc.endpoint("projectRoles.create", {
      params: { projectId },
      body: { slug: "scoped", name: "Scoped", permissions: customRules([named, addable]) },
    });
    expect(role.status).toBe(200);

    for (const holder of holders) {
      const { identityId, token } = await identityWithToken(svc, { name: `matrix-${holder}` });
      tokens[holder] = token;
      if (holder === "non-member") continue;
      await addMember(identityId, holder === "custom" ? "scoped" : holder);
    }
  });
  afterAll(async () => svc?.close());

  const as = (holder: Holder) => ({ token: tokens[holder] });

  interface Case {
    name: string;
    run(holder: Holder): Promise<CallResult>;
    expected: Record<Holder, number>;
  }

  const cases: Case[] = [
    {
      name: "projects.get",
      run: (h) => svc.endpoint("projects.get", { params: { workspaceId: projectId } }, as(h)),
      expected: { admin: ok, member: ok, viewer: ok, "no-access": ok, custom: ok, "non-member": no },
    },
    {
      name: "projects.getPermissions",
      run: (h) => svc.endpoint("projects.getPermissions", { params: { workspaceId: projectId } }, as(h)),
      expected: { admin: ok, member: ok, viewer: ok, "no-access": ok, custom: ok, "non-member": no },
    },
    {
      name: "projects.update",
      run: (h) =>
        svc.endpoint(
          "projects.update",
          { params: { workspaceId: projectId }, body: { description: `by ${h}` } },
          as(h),
        ),
      expected: { admin: ok, member: ok, viewer: no, "no-access": no, custom: no, "non-member": no },
    },
    {
      name: "environments.create",
      run: (h) =>
        svc.endpoint(
          "environments.create",
          { params: { workspaceId: projectId }, body: { name: `Env ${h}`, slug: `env-${h}` } },
          as(h),
        ),
      expected: { admin: ok, member: ok, viewer: no, "no-access": no, custom: ok, "non-member": no },
    },
    {
      name: "projectRoles.create",
      run: (h) =>
        svc.endpoint(
          "projectRoles.create",
          { params: { projectId }, body: { slug: `role-${h}`, name: `Role ${h}`, permissions: [] } },
          as(h),
        ),
      expected: { admin: ok, member: no, viewer: no, "no-access": no, custom: no, "non-member": no },
    },
    {
      name: "identityMemberships.add of the identity the custom role names",
      run: async (h) =>
        svc.endpoint(
          "identityMemberships.add",
          {
            params: { projectId, identityId: h === "custom" ? addable : await newIdentity("add") },
            body: { roles: [{ role: "no-access", isTemporary: false }] },
          },
          as(h),
        ),
      expected: { admin: ok, member: ok, viewer: no, "no-access": no, custom: ok, "non-member": no },
    },
    {
      name: "identityMemberships.add of any other identity",
      run: async (h) =>
        svc.endpoint(
          "identityMemberships.add",
          {
            params: { projectId, identityId: await newIdentity("other") },
            body: { roles: [{ role: "no-access", isTemporary: false }] },
          },
          as(h),
        ),
      expected: { admin: ok, member: ok, viewer: no, "no-access": no, custom: no, "non-member": no },
    },
    {
      name: "identityPrivileges.create within the custom role's conditions",
      run: (h) =>
        svc.endpoint(
          "identityPrivileges.create",
          {
            body: {
              identityId: named,
              projectId,
              slug: `within-${h}`,
              permissions: [{ subject: "secrets", action: ["read"], conditions: devAppSecrets }],
            },
          },
          as(h),
        ),
      expected: { admin: ok, member: ok, viewer: no, "no-access": no, custom: ok, "non-member": no },
    },
    {
      name: "identityPrivileges.create beyond the custom role's conditions",
      run: (h) =>
        svc.endpoint(
          "identityPrivileges.create",
          {
            body: {
              identityId: named,
              projectId,
              slug: `beyond-${h}`,
              permissions: [{ subject: "secrets", action: ["read"], conditions: { environment: "prod" } }],
            },
          },
          as(h),
        ),
      expected: { admin: ok, member: ok, viewer: no, "no-access": no, custom: no, "non-member": no },
    },
    {
      // Last: the admin's call deletes the project.
      name: "projects.delete",
      run: (h) => svc.endpoint("projects.delete", { params: { workspaceId: projectId } }, as(h)),
      expected: { admin: ok, member: no, viewer: no, "no-access": no, custom: no, "non-member": no },
    },
  ];

  it("a refusal of the custom role lists its rules about the subject, conditions included", async () => {
    const res = await svc.endpoint(
      "identityMemberships.add",
      {
        params: { projectId, identityId: await newIdentity("refused") },
        body: { roles: [{ role: "no-access", isTemporary: false }] },
      },
      as("custom"),
    );
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      error: "PermissionDenied",
      message: "You are not allowed to create on identity",
      details: [
        {
          subject: "identity",
          action: ["read", "create", "edit"],
          conditions: { identityId: { $in: [named, addable] } },
          inverted: false,
        },
      ],
    });
  });

  for (const c of cases) {
    describe(c.name, () => {
      for (const holder of holders) {
        const expected = c.expected[holder];
        it(`${holder}: ${expected === ok ? "allowed" : "refused"}`, async () => {
          const res = await c.run(holder);
          expect(res.status, JSON.stringify(res.body)).toBe(expected);
          if (expected === no) {
            const { error } = res.body as { error: string };
            expect(["PermissionDenied", "PermissionBoundaryError", "ProjectMembershipNotFound"]).toContain(error);
            if (holder === "non-member") expect(error).toBe("ProjectMembershipNotFound");
          }
        });
      }
    });
  }
});

describeEachDatabase("temporary privilege against the clock", (kind) => {
  let svc: TestService;
  let projectId: string;
  let viewer: { identityId: string; token: string };

  beforeAll(async () => {
    svc = await startService({ kind });
    const created = await svc.endpoint("projects.create", { body: { projectName: "Clocked" } });
    expect(created.status).toBe(200);
    projectId = endpoints["projects.create"].response.parse(created.body).project.id;
    viewer = await identityWithToken(svc, { name: "clocked-viewer" });
    const added = await svc.endpoint("identityMemberships.add", {
      params: { projectId, identityId: viewer.identityId },
      body: { roles: [{ role: "viewer", isTemporary: false }] },
    });
    expect(added.status).toBe(200);
  });
  afterAll(async () => svc?.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a viewer creates environments while a one-hour privilege lasts, and not from its end on", async () => {
    // Near the real time, so that the viewer's access token is within its TTL throughout.
    const start = new Date(Math.floor(Date.now() / 1000) * 1000);
    const at = (ms: number) => new Date(start.getTime() + ms);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    const createEnv = (slug: string) =>
      svc.endpoint(
        "environments.create",
        { params: { workspaceId: projectId }, body: { name: slug, slug } },
        { token: viewer.token },
      );

    expect((await createEnv("before-grant")).status).toBe(403);
    const granted = await svc.endpoint("identityPrivileges.create", {
      body: {
        identityId: viewer.identityId,
        projectId,
        slug: "env-for-an-hour",
        permissions: [{ subject: "environments", action: ["create"] }],
        type: {
          isTemporary: true,
          temporaryMode: "relative",
          temporaryRange: "1h",
          temporaryAccessStartTime: start.toISOString(),
        },
      },
    });
    expect(granted.status).toBe(200);

    vi.setSystemTime(at(1_000));
    expect((await createEnv("just-granted")).status).toBe(200);
    vi.setSystemTime(at(3_599_999));
    expect((await createEnv("last-moment")).status).toBe(200);
    vi.setSystemTime(at(3_600_000));
    const expired = await createEnv("at-the-end");
    expect(expired.status).toBe(403);
    expect((expired.body as { error: string }).error).toBe("PermissionDenied");
    vi.setSystemTime(at(7_200_000));
    expect((await createEnv("later")).status).toBe(403);
  });
  it("a temporary project role counts until its end time, then only the permanent role does", async () => {
    const start = new Date(Math.floor(Date.now() / 1000) * 1000);
    const at = (ms: number) => new Date(start.getTime() + ms);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    const holder = await identityWithToken(svc, { name: "clocked-member" });
    const added = await svc.endpoint("identityMemberships.add", {
      params: { projectId, identityId: holder.identityId },
      body: {
        roles: [
          { role: "no-access", isTemporary: false },
          {
            role: "member",
            isTemporary: true,
            temporaryMode: "relative",
            temporaryRange: "30m",
            temporaryAccessStartTime: start.toISOString(),
          },
        ],
      },
    });
    expect(added.status).toBe(200);
    const createEnv = (slug: string) =>
      svc.endpoint(
        "environments.create",
        { params: { workspaceId: projectId }, body: { name: slug, slug } },
        { token: holder.token },
      );
    const rolesNow = async () => {
      const res = await svc.endpoint(
        "projects.getPermissions",
        { params: { workspaceId: projectId } },
        { token: holder.token },
      );
      const { data } = endpoints["projects.getPermissions"].response.parse(res.body);
      return { rules: data.permissions.length, roles: data.membership.roles.map((r) => r.role).sort() };
    };

    vi.setSystemTime(at(29 * 60_000));
    expect((await createEnv("member-while-active")).status).toBe(200);
    expect((await rolesNow()).rules).toBeGreaterThan(0);
    vi.setSystemTime(at(30 * 60_000));
    expect((await createEnv("member-after-end")).status).toBe(403);
    // The expired role is still listed on the membership; it just grants nothing.
    expect(await rolesNow()).toEqual({ rules: 0, roles: ["member", "no-access"] });
  });
});
