import { describe, expect, it } from "vitest";
import { projectAbility } from "./ability";

describe("projectAbility", () => {
  it("allows what a rule grants and says why the rest is not allowed", () => {
    const ability = projectAbility([{ subject: "role", action: ["read", "edit"] }]);
    expect(ability.can("read", "role")).toBe(true);
    expect(ability.reason("edit", "role")).toBeUndefined();
    expect(ability.can("delete", "role")).toBe(false);
    expect(ability.reason("delete", "role")).toBe("Your project permissions do not include “Delete” on roles.");
  });

  it("names a deny rule as the reason when one decides", () => {
    const ability = projectAbility([
      { subject: "role", action: ["read", "delete"] },
      { subject: "role", action: ["delete"], inverted: true },
    ]);
    expect(ability.can("delete", "role")).toBe(false);
    expect(ability.reason("delete", "role")).toBe("A deny rule in your project permissions forbids “Delete” on roles.");
  });

  it("counts a conditional allow as possible and leaves a conditional deny to the server", () => {
    const ability = projectAbility([
      { subject: "secrets", action: ["read"], conditions: { environment: "dev", secretPath: { $glob: "/**" } } },
      { subject: "role", action: ["read"] },
      { subject: "role", action: ["read"], inverted: true, conditions: { environment: "prod" } },
    ]);
    expect(ability.can("read", "secrets")).toBe(true);
    expect(ability.can("edit", "secrets")).toBe(false);
    expect(ability.can("read", "role")).toBe(true);
  });
});
