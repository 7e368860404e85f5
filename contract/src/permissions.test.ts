import { describe, expect, it } from "vitest";
import { endpoints } from "./index.ts";
import { PermissionRuleInputSchema } from "./permissions.ts";

const permissionsResponse = endpoints["projects.getPermissions"].response;

describe("projects.getPermissions response", () => {
  const membership = { id: "m1", roles: [{ role: "admin" }] };

  it("reads CASL-packed rules (as Infisical sends them) as rule objects", () => {
    const parsed = permissionsResponse.parse({
      data: {
        permissions: [
          ["read,edit", "secrets", { environment: "dev" }, 1],
          ["read", "role"],
        ],
        membership,
      },
    });
    expect(parsed.data.permissions).toEqual([
      { subject: "secrets", action: ["read", "edit"], conditions: { environment: "dev" }, inverted: true },
      { subject: "role", action: ["read"], inverted: false },
    ]);
  });

  it("keeps unpacked rules as they are", () => {
    const rule = {
      subject: "secrets",
      action: ["read"],
      conditions: { secretPath: { $glob: "/**" } },
      inverted: false,
    };
    expect(permissionsResponse.parse({ data: { permissions: [rule], membership } }).data.permissions).toEqual([rule]);
  });
});

describe("permission rules as sent", () => {
  it("allow {{identity.id}} as the only template in conditions", () => {
    const rule = (identityId: string) => ({ subject: "identity", action: ["read"], conditions: { identityId } });
    expect(PermissionRuleInputSchema.safeParse(rule("{{identity.id}}")).success).toBe(true);
    expect(PermissionRuleInputSchema.safeParse(rule("{{ identity.id }}")).success).toBe(true);
    expect(PermissionRuleInputSchema.safeParse(rule("{{identity.name}}")).success).toBe(false);
    expect(PermissionRuleInputSchema.safeParse(rule("{{constructor}}")).success).toBe(false);
  });

  it("accept a subject's own actions and condition fields only", () => {
    expect(PermissionRuleInputSchema.safeParse({ subject: "secrets", action: "readValue" }).success).toBe(true);
    expect(PermissionRuleInputSchema.safeParse({ subject: "secrets", action: ["lease"] }).success).toBe(false);
    expect(PermissionRuleInputSchema.safeParse({ subject: "nothing", action: ["read"] }).success).toBe(false);
    expect(
      PermissionRuleInputSchema.safeParse({ subject: "role", action: ["read"], conditions: { environment: "dev" } })
        .success,
    ).toBe(false);
  });
});
