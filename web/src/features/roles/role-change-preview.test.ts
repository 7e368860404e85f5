import { describe, expect, it } from "vitest";
import type { ProjectMember } from "@/components/permissions/access-preview";
import { previewRoleChange } from "./role-change-preview";

const scope = [
  { slug: "dev", folders: [] },
  { slug: "prod", folders: ["/app"] },
];
const role = { id: "r1", slug: "prod-reader", name: "Prod reader" };
const prodRead = [{ subject: "secrets", action: ["readValue"], conditions: { environment: "prod" } }];
const roles = new Map([
  ["prod-reader", { name: "Prod reader", rules: prodRead }],
  ["viewer", { name: "Viewer", rules: [{ subject: "secrets", action: ["read"] }] }],
]);
const member = (id: string, slugs: string[], extra: Partial<ProjectMember> = {}): ProjectMember => ({
  kind: "identity",
  id,
  name: id,
  roles: slugs.map((slug) => ({
    role: slug === "viewer" ? "viewer" : "custom",
    customRoleSlug: slug === "viewer" ? null : slug,
    isTemporary: false,
  })),
  privileges: [],
  ...extra,
});
const now = Date.parse("2026-01-01T00:00:00Z");
const preview = (members: ProjectMember[]) =>
  previewRoleChange({ role, draft: [], members, rulesOf: (slug) => roles.get(slug), scope, now });

describe("previewRoleChange", () => {
  it("lists only the members holding the role, each loss with its folder", () => {
    const [only, ...rest] = preview([member("a", ["prod-reader"]), member("b", ["viewer"])]);
    expect(rest).toEqual([]);
    expect(only?.member.id).toBe("a");
    expect(only?.changes.map((c) => `${c.change} ${c.action} ${c.environment}${c.folder}`)).toEqual([
      "loses readValue prod/",
      "loses readValue prod/app",
    ]);
  });

  it("a loss another role or a privilege covers is no loss", () => {
    const covered = preview([
      member("a", ["prod-reader", "viewer"]),
      member("b", ["prod-reader"], {
        privileges: [{ slug: "p", isTemporary: false, permissions: prodRead }],
      }),
    ]);
    expect(covered.map((entry) => entry.changes)).toEqual([[], []]);
  });

  it("an expired temporary holding changes nothing now", () => {
    const expired = member("a", []);
    const [entry] = preview([
      {
        ...expired,
        roles: [
          {
            role: "custom",
            customRoleSlug: "prod-reader",
            isTemporary: true,
            temporaryAccessEndTime: new Date(now - 1).toISOString(),
          },
        ],
      },
    ]);
    expect(entry?.changes).toEqual([]);
  });

  it("refuses to guess when a role's rules are unknown", () => {
    expect(() => preview([member("a", ["prod-reader", "unknown"])])).toThrow(/unknown/);
  });
});
