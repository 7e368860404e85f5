import { describe, expect, it } from "vitest";
import {
  buildProjectAbility,
  canDescribe,
  canReadValue,
  globMatches,
  isGrantActive,
  missingPermissions,
  parseStoredRules,
  predefinedProjectRoles,
  type ProjectRule,
  projectSubject,
  rulesForIdentity,
  serializeRules,
} from "./permission-engine.ts";
import { projectPermissionActions } from "./permissions.ts";

/*
 * How project permissions are evaluated. The service decides every request with these rules and
 * the console previews changes with them, so this suite runs in the contract's, the service's and
 * the console's test runs alike.
 */

const ability = (rules: ProjectRule[]) => buildProjectAbility(rules);
const secrets = (fields: Parameters<typeof projectSubject>[1]) => projectSubject("secrets", fields);

describe("predefined project roles", () => {
  const admin = ability(predefinedProjectRoles.admin.permissions);
  const member = ability(predefinedProjectRoles.member.permissions);
  const viewer = ability(predefinedProjectRoles.viewer.permissions);
  const none = ability(predefinedProjectRoles["no-access"].permissions);

  it("admin holds every action of every subject", () => {
    for (const [subject, actions] of Object.entries(projectPermissionActions)) {
      for (const action of actions) expect(admin.can(action, subject), `${action} ${subject}`).toBe(true);
    }
  });

  it("member writes secrets and environments but may not edit or delete the project, nor change roles", () => {
    expect(member.can("create", secrets({ environment: "prod", secretPath: "/" }))).toBe(true);
    expect(member.can("create", "environments")).toBe(true);
    expect(member.can("edit", "workspace")).toBe(false);
    expect(member.can("delete", "workspace")).toBe(false);
    expect(member.can("read", "role")).toBe(true);
    expect(member.can("create", "role")).toBe(false);
    expect(member.can("grant-privileges", "identity")).toBe(false);
  });

  it("viewer reads but writes nothing", () => {
    expect(viewer.can("readValue", "secrets")).toBe(true);
    expect(viewer.can("read", "environments")).toBe(true);
    for (const action of ["create", "edit", "delete"]) {
      for (const subject of ["secrets", "environments", "role", "identity", "member"]) {
        expect(viewer.can(action, subject), `${action} ${subject}`).toBe(false);
      }
    }
  });

  it("no-access holds nothing", () => {
    expect(none.rules).toEqual([]);
    expect(none.can("read", "secrets")).toBe(false);
    expect(none.can("read", "environments")).toBe(false);
  });
});

describe("conditions", () => {
  it("a bare value is equality, $eq and $ne compare, $in takes a list", () => {
    const a = ability([
      { subject: "secrets", action: ["read"], conditions: { environment: "dev" } },
      { subject: "secrets", action: ["edit"], conditions: { environment: { $eq: "staging" } } },
      { subject: "secrets", action: ["delete"], conditions: { environment: { $ne: "prod" } } },
      { subject: "secrets", action: ["create"], conditions: { environment: { $in: ["dev", "staging"] } } },
    ]);
    expect(a.can("read", secrets({ environment: "dev" }))).toBe(true);
    expect(a.can("read", secrets({ environment: "prod" }))).toBe(false);
    expect(a.can("edit", secrets({ environment: "staging" }))).toBe(true);
    expect(a.can("edit", secrets({ environment: "dev" }))).toBe(false);
    expect(a.can("delete", secrets({ environment: "dev" }))).toBe(true);
    expect(a.can("delete", secrets({ environment: "prod" }))).toBe(false);
    expect(a.can("create", secrets({ environment: "staging" }))).toBe(true);
    expect(a.can("create", secrets({ environment: "prod" }))).toBe(false);
  });

  it("every condition of a rule must hold, and a field the check does not give never matches", () => {
    const a = ability([
      { subject: "secrets", action: ["read"], conditions: { environment: "dev", secretName: { $in: ["A", "B"] } } },
    ]);
    expect(a.can("read", secrets({ environment: "dev", secretName: "A" }))).toBe(true);
    expect(a.can("read", secrets({ environment: "dev", secretName: "C" }))).toBe(false);
    expect(a.can("read", secrets({ environment: "dev" }))).toBe(false);
  });

  it("secretTags match when any of the secret's tags is listed", () => {
    const a = ability([{ subject: "secrets", action: ["read"], conditions: { secretTags: { $in: ["db", "cache"] } } }]);
    expect(a.can("read", secrets({ secretTags: ["web", "db"] }))).toBe(true);
    expect(a.can("read", secrets({ secretTags: ["web"] }))).toBe(false);
    expect(a.can("read", secrets({ secretTags: [] }))).toBe(false);
  });

  it("asking about the subject type alone is allowed when some rule could allow it", () => {
    const a = ability([{ subject: "secrets", action: ["read"], conditions: { environment: "dev" } }]);
    expect(a.can("read", "secrets")).toBe(true);
    expect(a.can("edit", "secrets")).toBe(false);
  });
});

describe("{{identity.id}} templates", () => {
  it("become the id of the identity the rules apply to, wherever they stand in a value", () => {
    const rules: ProjectRule[] = [
      { subject: "identity", action: ["read"], conditions: { identityId: "{{identity.id}}" } },
      { subject: "secrets", action: ["read"], conditions: { secretPath: { $glob: "/users/{{ identity.id }}/**" } } },
      { subject: "tags", action: ["read"] },
    ];
    const own = rulesForIdentity(rules, "id-1");
    expect(own[0]?.conditions).toEqual({ identityId: "id-1" });
    expect(own[1]?.conditions).toEqual({ secretPath: { $glob: "/users/id-1/**" } });
    expect(own[2]).toBe(rules[2]);
    const a = ability(own);
    expect(a.can("read", projectSubject("identity", { identityId: "id-1" }))).toBe(true);
    expect(a.can("read", projectSubject("identity", { identityId: "id-2" }))).toBe(false);
    expect(a.can("read", secrets({ secretPath: "/users/id-1/db" }))).toBe(true);
    expect(a.can("read", secrets({ secretPath: "/users/id-2/db" }))).toBe(false);
  });
});

describe("$glob", () => {
  it("matches paths with picomatch, trailing slashes not strict", () => {
    expect(globMatches("/app/**", "/app")).toBe(true);
    expect(globMatches("/app/**", "/app/a/b")).toBe(true);
    expect(globMatches("/app/**", "/apps")).toBe(false);
    expect(globMatches("/app/*", "/app/a/")).toBe(true);
    expect(globMatches("/app/*", "/app/a/b")).toBe(false);
    expect(globMatches("/", "/")).toBe(true);
    expect(globMatches("/", "/app")).toBe(false);
    expect(globMatches("{dev,staging}", "staging")).toBe(true);
  });

  it("an empty glob never matches, nor does a missing value", () => {
    expect(globMatches("", "")).toBe(false);
    expect(globMatches("", "/")).toBe(false);
    expect(globMatches("/**", undefined)).toBe(false);
  });

  it("works as a condition operator on secretPath and environment", () => {
    const a = ability([
      {
        subject: "secrets",
        action: ["read"],
        conditions: { environment: { $glob: "dev*" }, secretPath: { $glob: "/app/**" } },
      },
    ]);
    expect(a.can("read", secrets({ environment: "dev-eu", secretPath: "/app/api" }))).toBe(true);
    expect(a.can("read", secrets({ environment: "dev", secretPath: "/other" }))).toBe(false);
    expect(a.can("read", secrets({ environment: "prod", secretPath: "/app" }))).toBe(false);
  });

  it("a rule with an empty glob grants nothing", () => {
    const a = ability([{ subject: "secrets", action: ["read"], conditions: { secretPath: { $glob: "" } } }]);
    expect(a.can("read", secrets({ secretPath: "" }))).toBe(false);
    expect(a.can("read", secrets({ secretPath: "/" }))).toBe(false);
  });
});

describe("inverted rules", () => {
  const a = ability([
    { subject: "secrets", action: ["read", "edit"] },
    { subject: "secrets", action: ["edit"], conditions: { environment: "prod" }, inverted: true },
    { subject: "environments", action: ["delete"], inverted: true },
    { subject: "environments", action: ["read", "delete"] },
  ]);

  it("a later deny wins over an earlier allow where its conditions hold", () => {
    expect(a.can("edit", secrets({ environment: "dev" }))).toBe(true);
    expect(a.can("edit", secrets({ environment: "prod" }))).toBe(false);
    expect(a.can("read", secrets({ environment: "prod" }))).toBe(true);
  });

  it("rule order decides between an allow and a deny of the same scope (last one wins)", () => {
    expect(a.can("read", "environments")).toBe(true);
    expect(a.can("delete", "environments")).toBe(true);
    const denyLast = ability([
      { subject: "environments", action: ["delete"] },
      { subject: "environments", action: ["delete"], inverted: true },
    ]);
    expect(denyLast.can("delete", "environments")).toBe(false);
  });
});

describe("secret read semantics", () => {
  it("legacy read lists and reveals", () => {
    const a = ability([{ subject: "secrets", action: ["read"], conditions: { environment: "dev" } }]);
    expect(canDescribe(a, { environment: "dev" })).toBe(true);
    expect(canReadValue(a, { environment: "dev" })).toBe(true);
    expect(canDescribe(a, { environment: "prod" })).toBe(false);
  });

  it("describeSecret lists without revealing; readValue reveals", () => {
    const describeOnly = ability([{ subject: "secrets", action: ["describeSecret"] }]);
    expect(canDescribe(describeOnly, { environment: "dev" })).toBe(true);
    expect(canReadValue(describeOnly, { environment: "dev" })).toBe(false);
    const valueOnly = ability([{ subject: "secrets", action: ["readValue"] }]);
    expect(canReadValue(valueOnly, { environment: "dev" })).toBe(true);
    expect(canDescribe(valueOnly, { environment: "dev" })).toBe(false);
  });
});

describe("temporary grants", () => {
  const start = Date.parse("2026-11-23T12:00:00.000Z");
  const end = "2026-11-23T13:00:00.000Z";

  it("a permanent grant always counts", () => {
    expect(isGrantActive({ isTemporary: false, temporaryAccessEndTime: null }, start)).toBe(true);
  });

  it("a temporary grant counts until its end time, not at or after it", () => {
    const grant = { isTemporary: true, temporaryAccessEndTime: end };
    expect(isGrantActive(grant, start)).toBe(true);
    expect(isGrantActive(grant, Date.parse(end) - 1)).toBe(true);
    expect(isGrantActive(grant, Date.parse(end))).toBe(false);
    expect(isGrantActive(grant, Date.parse(end) + 60_000)).toBe(false);
    expect(isGrantActive({ isTemporary: true, temporaryAccessEndTime: new Date(end) }, start)).toBe(true);
  });

  it("a temporary grant without an end time never counts", () => {
    expect(isGrantActive({ isTemporary: true, temporaryAccessEndTime: null }, start)).toBe(false);
  });
});

describe("stored rules", () => {
  const rules: ProjectRule[] = [
    { subject: "secrets", action: ["read", "edit"], conditions: { environment: "dev", secretPath: { $glob: "/**" } } },
    { subject: "role", action: ["read"], inverted: true },
  ];

  it("pack and unpack to the returned form", () => {
    const stored = serializeRules(rules);
    expect(JSON.parse(stored)[0]).toBeInstanceOf(Array);
    expect(parseStoredRules(stored)).toEqual([
      { ...rules[0], inverted: false },
      { subject: "role", action: ["read"], inverted: true },
    ]);
  });

  it("read unpacked objects too, with a single action as a list", () => {
    expect(parseStoredRules(JSON.stringify([{ subject: "tags", action: "read" }]))).toEqual([
      { subject: "tags", action: ["read"], inverted: false },
    ]);
  });
});

describe("permission boundary", () => {
  const holder = ability([
    { subject: "secrets", action: ["read", "edit"] },
    { subject: "secrets", action: ["delete"], conditions: { environment: "dev" } },
    { subject: "tags", action: ["read", "edit"] },
    { subject: "tags", action: ["edit"], conditions: { environment: "prod" }, inverted: true },
  ]);

  it("an unconditional allow covers the same action with or without conditions", () => {
    expect(
      missingPermissions(holder, [
        { subject: "secrets", action: ["read"] },
        { subject: "secrets", action: ["edit"], conditions: { environment: "prod" } },
      ]),
    ).toEqual([]);
  });

  it("a conditional allow covers only identical conditions", () => {
    expect(
      missingPermissions(holder, [{ subject: "secrets", action: ["delete"], conditions: { environment: "dev" } }]),
    ).toEqual([]);
    expect(missingPermissions(holder, [{ subject: "secrets", action: ["delete"] }])).toEqual([
      { subject: "secrets", action: "delete" },
    ]);
    expect(
      missingPermissions(holder, [{ subject: "secrets", action: ["delete"], conditions: { environment: "prod" } }]),
    ).toEqual([{ subject: "secrets", action: "delete", conditions: { environment: "prod" } }]);
  });

  it("an action the holder lacks, or holds under a deny, is outside", () => {
    expect(missingPermissions(holder, [{ subject: "secrets", action: ["read", "create"] }])).toEqual([
      { subject: "secrets", action: "create" },
    ]);
    expect(missingPermissions(holder, [{ subject: "tags", action: ["read", "edit"] }])).toEqual([
      { subject: "tags", action: "edit" },
    ]);
  });

  it("deny rules grant nothing and are always within", () => {
    expect(missingPermissions(holder, [{ subject: "workspace", action: ["delete"], inverted: true }])).toEqual([]);
  });

  it("an admin may grant anything of the predefined roles", () => {
    const admin = ability(predefinedProjectRoles.admin.permissions);
    for (const role of Object.values(predefinedProjectRoles)) {
      expect(missingPermissions(admin, role.permissions)).toEqual([]);
    }
    const member = ability(predefinedProjectRoles.member.permissions);
    expect(missingPermissions(member, predefinedProjectRoles.viewer.permissions)).toEqual([]);
    expect(missingPermissions(member, predefinedProjectRoles.admin.permissions).length).toBeGreaterThan(0);
  });
});
