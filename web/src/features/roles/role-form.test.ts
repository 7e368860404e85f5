import { describe, expect, it } from "vitest";
import {
  copyableRules,
  copySummary,
  isBuiltInRole,
  RoleFormSchema,
  roleSlugFrom,
  sortRoles,
  toCreateBody,
  toFormValues,
  toUpdateBody,
} from "./role-form";

describe("role form", () => {
  it("derives a slug from a name as the server's slug rules want it", () => {
    expect(roleSlugFrom("Secret Reader (dev)")).toBe("secret-reader-dev");
    expect(roleSlugFrom("Über  Admin")).toBe("ueber-admin");
    expect(roleSlugFrom("x".repeat(80))).toHaveLength(64);
  });

  it("refuses reserved and malformed slugs with the contract's messages", () => {
    const parse = (slug: string) => RoleFormSchema.safeParse({ name: "A", slug, description: "" });
    expect(parse("admin").error?.issues[0]?.message).toBe("This slug is reserved for a built-in role; choose another");
    expect(parse("Bad Slug").error?.issues[0]?.message).toBe(
      "Slug may contain only lowercase letters, digits and single hyphens",
    );
    expect(parse("secret-reader").success).toBe(true);
  });

  it("proposes a copy's name and slug when duplicating", () => {
    expect(toFormValues({ name: "Viewer", slug: "viewer", description: null }, { duplicate: true })).toEqual({
      name: "Viewer copy",
      slug: "viewer-copy",
      description: "",
    });
  });

  it("sends only the details that changed, and a cleared description as null", () => {
    const role = { name: "Reader", slug: "reader", description: "reads" };
    expect(toUpdateBody({ name: "Reader", slug: "reader", description: "reads" }, role)).toEqual({});
    expect(toUpdateBody({ name: "Reader 2", slug: "reader", description: "" }, role)).toEqual({
      name: "Reader 2",
      description: null,
    });
  });

  it("leaves an empty description out of a new role", () => {
    expect(toCreateBody({ name: "A", slug: "a", description: "" }, [])).toEqual({
      name: "A",
      slug: "a",
      permissions: [],
    });
  });

  it("lists built-in roles first, then custom roles by slug", () => {
    const roles = [{ slug: "zeta" }, { slug: "admin" }, { slug: "alpha" }, { slug: "viewer" }];
    expect(sortRoles(roles).map((r) => r.slug)).toEqual(["admin", "viewer", "alpha", "zeta"]);
    expect(isBuiltInRole("no-access")).toBe(true);
  });

  it("leaves rules for unknown subjects out of a copy, and says so", () => {
    const copied = copyableRules([
      { subject: "role", action: ["read"] },
      { subject: "apiharbor-keys", action: ["read"] },
      { subject: "pki-alerts", action: ["read"] },
    ]);
    expect(copied).toEqual({ rules: [{ subject: "role", action: ["read"] }], left: 2 });
    expect(copySummary(copied, "Admin")).toBe(
      "Copies 1 rule from Admin. 2 rules for subjects this console does not know are left out.",
    );
    expect(copySummary({ rules: [1, 2], left: 0 }, "Viewer")).toBe("Copies 2 rules from Viewer.");
  });
});
