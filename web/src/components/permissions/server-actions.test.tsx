import type { PermissionRuleInput } from "@keyhold/contract";
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { PermissionRulesEditor } from "./permission-rules-editor";
import { serverActionsOf } from "./server-actions";

/** The built-in admin role of an October 2024 server, in part (fixtures/infisical/2024-10/063). */
const adminOf2024 = [
  { subject: "secrets", action: ["read", "edit", "create", "delete"] },
  { subject: "secret-folders", action: ["read", "edit", "create", "delete"] },
  { subject: "role", action: ["read", "edit", "create", "delete"] },
];

describe("serverActionsOf", () => {
  it("collects each subject's actions from the admin role's rules, packed or not, deny rules aside", () => {
    const known = serverActionsOf([
      ...adminOf2024,
      { subject: "role", action: "grant-privileges" },
      { subject: "secrets", action: ["readValue"], inverted: true },
    ]);
    expect(known).toEqual({
      secrets: ["read", "edit", "create", "delete"],
      "secret-folders": ["read", "edit", "create", "delete"],
      role: ["read", "edit", "create", "delete", "grant-privileges"],
    });
  });
});

describe("the permission builder on a server that knows fewer actions", { timeout: 20_000 }, () => {
  const serverActions = serverActionsOf(adminOf2024);
  const show = (value: PermissionRuleInput[] = []) =>
    render(<PermissionRulesEditor value={value} onChange={() => {}} serverActions={serverActions} />);
  const checkboxes = (group: string) =>
    within(screen.getByRole("group", { name: group }))
      .getAllByRole("checkbox")
      .map((box) => box.getAttribute("aria-label") ?? box.closest("label")?.textContent);

  it("offers only the actions the server knows, in the table's order", () => {
    show();
    expect(checkboxes("Secrets")).toEqual(["Read", "Create", "Edit", "Delete"]);
  });

  it("leaves out subjects the server does not know, unless a rule names one", () => {
    show();
    expect(screen.queryByRole("group", { name: "Secret imports" })).toBeNull();
    expect(screen.getByRole("group", { name: "Secret folders" })).toBeVisible();
  });

  it("still shows a rule's action the server does not list, so nothing on the rule is hidden", () => {
    show([{ subject: "secrets", action: ["read", "readValue"] }]);
    expect(checkboxes("Secrets")).toEqual(["Read", "Create", "Edit", "Delete", "Read value"]);
  });

  it("offers the contract's whole table while the server's actions are unknown", () => {
    render(<PermissionRulesEditor value={[]} onChange={() => {}} />);
    expect(checkboxes("Secrets")).toEqual(["Read", "Describe", "Read value", "Create", "Edit", "Delete"]);
  });
});
