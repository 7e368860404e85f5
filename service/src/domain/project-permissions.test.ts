import { describe, expect, it } from "vitest";
import "@keyhold/contract/permission-engine.test";
import "@keyhold/contract/permission-grid.test";
import { PermissionBoundaryError, PermissionDeniedError } from "./errors.ts";
import {
  assertBoundary,
  assertCan,
  buildProjectAbility,
  predefinedProjectRoles,
  type ProjectRule,
  rulesOfRole,
  serializeRules,
} from "./project-permissions.ts";

const ability = (rules: ProjectRule[]) => buildProjectAbility(rules);

describe("membership roles", () => {
  it("a membership role row resolves to the predefined rules, its custom role's stored rules, or none", () => {
    expect(rulesOfRole({ role: "viewer", custom_role_permissions: null })).toBe(
      predefinedProjectRoles.viewer.permissions,
    );
    const stored = serializeRules([{ subject: "tags", action: ["read"] }]);
    expect(rulesOfRole({ role: "custom", custom_role_permissions: stored })).toEqual([
      { subject: "tags", action: ["read"], inverted: false },
    ]);
    expect(rulesOfRole({ role: "no-such-role", custom_role_permissions: null })).toEqual([]);
  });
});

describe("denial details", () => {
  it("a refusal lists the actor's rules about that subject only", () => {
    const a = ability([
      { subject: "secrets", action: ["read"], conditions: { environment: "dev" } },
      { subject: "role", action: ["read"] },
    ]);
    try {
      assertCan(a, "edit", "secrets", { environment: "dev" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(PermissionDeniedError);
      expect((error as PermissionDeniedError).message).toBe("You are not allowed to edit on secrets");
      expect((error as PermissionDeniedError).details).toEqual([
        { subject: "secrets", action: ["read"], conditions: { environment: "dev" }, inverted: false },
      ]);
    }
    expect(() => assertCan(a, "read", "secrets", { environment: "dev" })).not.toThrow();
  });
});

describe("permission boundary", () => {
  const holder = ability([
    { subject: "secrets", action: ["read", "edit"] },
    { subject: "secrets", action: ["delete"], conditions: { environment: "dev" } },
  ]);

  it("assertBoundary throws PermissionBoundaryError listing what is missing", () => {
    expect(() => assertBoundary(holder, [{ subject: "secrets", action: ["read"] }])).not.toThrow();
    try {
      assertBoundary(holder, [{ subject: "role", action: ["create"] }]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(PermissionBoundaryError);
      expect((error as PermissionBoundaryError).details).toEqual({
        missingPermissions: [{ subject: "role", action: "create" }],
      });
    }
  });
});
