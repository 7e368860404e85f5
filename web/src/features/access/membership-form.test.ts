import type { MembershipRole } from "@keyhold/contract";
import { describe, expect, it } from "vitest";
import {
  AddIdentityFormSchema,
  IdentityRolesFormSchema,
  newRoleEntry,
  type RoleEntry,
  roleNameOf,
  toRoleEntries,
  toRolesBody,
} from "./membership-form";

const now = new Date("2026-11-23T20:00:00.000Z");
const temporary = (role: string, range = "1h"): RoleEntry => ({
  role,
  isTemporary: true,
  temporaryRange: range,
  startMode: "now",
  startAt: "",
});
const issues = (schema: typeof AddIdentityFormSchema | typeof IdentityRolesFormSchema, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("the add-identity form", () => {
  it("needs an identity and at least one role", () => {
    expect(issues(AddIdentityFormSchema, { identityId: "", roles: [] })).toEqual([
      "identityId: Choose an identity",
      "roles: Give at least one role",
    ]);
  });

  it("checks each role: chosen, and a readable range when temporary", () => {
    expect(
      issues(AddIdentityFormSchema, {
        identityId: "id-1",
        roles: [newRoleEntry(""), temporary("viewer", "soon")],
      }),
    ).toEqual(["roles.0.role: Choose a role", "roles.1.temporaryRange: Use a duration such as 30m, 1h, 1d or 7d"]);
  });

  it("refuses the same role twice", () => {
    expect(issues(IdentityRolesFormSchema, { roles: [newRoleEntry("viewer"), temporary("viewer")] })).toEqual([
      "roles.1.role: This role is already in the list",
    ]);
  });

  it("accepts a permanent role with a temporary one", () => {
    expect(
      issues(IdentityRolesFormSchema, { roles: [newRoleEntry("viewer"), temporary("ci-deployer", "1d")] }),
    ).toEqual([]);
  });
});

describe("toRolesBody", () => {
  it("sends permanent roles bare and temporary ones in relative mode from now", () => {
    expect(toRolesBody([newRoleEntry("viewer"), temporary("ci-deployer", "4h")], now)).toEqual({
      roles: [
        { role: "viewer", isTemporary: false },
        {
          role: "ci-deployer",
          isTemporary: true,
          temporaryMode: "relative",
          temporaryRange: "4h",
          temporaryAccessStartTime: "2026-11-23T20:00:00.000Z",
        },
      ],
    });
  });
});

describe("stored roles", () => {
  const stored: MembershipRole[] = [
    { id: "r1", role: "admin", isTemporary: false, customRoleSlug: null, customRoleName: null },
    {
      id: "r2",
      role: "custom",
      customRoleId: "c1",
      customRoleSlug: "ci-deployer",
      customRoleName: "CI deployer",
      isTemporary: true,
      temporaryMode: "relative",
      temporaryRange: "1d",
      temporaryAccessStartTime: "2026-11-23T18:00:00.000Z",
      temporaryAccessEndTime: "2026-11-24T18:00:00.000Z",
    },
  ];

  it("edit a custom role by its slug and keep a temporary role's start, so saving unchanged keeps its end", () => {
    const entries = toRoleEntries(stored);
    expect(entries.map((e) => e.role)).toEqual(["admin", "ci-deployer"]);
    expect(toRolesBody(entries, now).roles[1]).toEqual({
      role: "ci-deployer",
      isTemporary: true,
      temporaryMode: "relative",
      temporaryRange: "1d",
      temporaryAccessStartTime: "2026-11-23T18:00:00.000Z",
    });
  });

  it("are named by the custom role's name or the predefined role's name", () => {
    const roles = [{ slug: "admin", name: "Admin" }];
    expect(stored.map((r) => roleNameOf(r, roles))).toEqual(["Admin", "CI deployer"]);
    expect(roleNameOf({ role: "viewer" }, roles)).toBe("viewer");
  });
});
