import type { PermissionRuleInput } from "@keyhold/contract";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { PermissionRulesEditor } from "./permission-rules-editor";
import { PermissionRulesJson } from "./permission-rules-json";

/** The editor with its value held by a parent, as a form would; the latest value is read back from the JSON view. */
function Harness({ initial = [], readOnly = false }: { initial?: PermissionRuleInput[]; readOnly?: boolean }) {
  const [rules, setRules] = useState<PermissionRuleInput[]>(initial);
  return (
    <>
      <PermissionRulesEditor value={rules} onChange={setRules} readOnly={readOnly} showErrors />
      <PermissionRulesJson value={rules} />
    </>
  );
}

const json = () =>
  JSON.parse(screen.getByRole("region", { name: "Permission rules as JSON" }).querySelector("code")?.textContent ?? "");

function subject(name: string) {
  return screen.getByRole("group", { name });
}

// The whole grid renders per keystroke; a loaded machine needs more than the default five seconds.
describe("PermissionRulesEditor", { timeout: 20_000 }, () => {
  it("grants an action by keyboard: tab to a checkbox and press space", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const roles = subject("Roles");
    within(roles).getByRole("checkbox", { name: "Read" }).focus();
    await user.keyboard(" ");
    expect(json()).toEqual([{ subject: "role", action: ["read"] }]);
    // The checkbox that created the rule keeps focus, so the next key works on the same row.
    expect(within(subject("Roles")).getByRole("checkbox", { name: "Read" })).toHaveFocus();
    await user.tab();
    await user.keyboard(" ");
    expect(json()).toEqual([{ subject: "role", action: ["read", "create"] }]);
  });

  it("turns a rule into a deny rule", async () => {
    const user = userEvent.setup();
    render(<Harness initial={[{ subject: "role", action: ["delete"] }]} />);
    await user.click(screen.getByRole("radio", { name: "Deny" }));
    expect(json()).toEqual([{ subject: "role", action: ["delete"], inverted: true }]);
  });

  it("adds a condition to a secrets rule and explains what is missing until a value is typed", async () => {
    const user = userEvent.setup();
    render(<Harness initial={[{ subject: "secrets", action: ["read"] }]} />);
    await user.click(within(subject("Secrets")).getByRole("button", { name: "Add condition" }));
    expect(json()).toEqual([{ subject: "secrets", action: ["read"], conditions: { environment: { $eq: "" } } }]);
    expect(screen.getByText("Enter a value for environment.")).toBeVisible();

    await user.type(screen.getByLabelText("Secrets rule 1, condition 1: value"), "dev");
    expect(json()).toEqual([{ subject: "secrets", action: ["read"], conditions: { environment: { $eq: "dev" } } }]);
    expect(screen.queryByText("Enter a value for environment.")).toBeNull();
  });

  it("collects tag values one at a time for $in", async () => {
    const user = userEvent.setup();
    render(
      <Harness initial={[{ subject: "secrets", action: ["read"], conditions: { secretTags: { $in: ["a"] } } }]} />,
    );
    const input = screen.getByLabelText("Secrets rule 1, condition 1: values");
    await user.type(input, "b{Enter}c,");
    expect(json()[0].conditions).toEqual({ secretTags: { $in: ["a", "b", "c"] } });
    await user.keyboard("{Backspace}");
    expect(json()[0].conditions).toEqual({ secretTags: { $in: ["a", "b"] } });
    await user.click(screen.getByRole("button", { name: "Remove a" }));
    expect(json()[0].conditions).toEqual({ secretTags: { $in: ["b"] } });
  });

  it("keeps rules for subjects it does not know, and can remove them", async () => {
    const user = userEvent.setup();
    render(<Harness initial={[{ subject: "apiharbor-keys", action: ["read"] }]} />);
    expect(screen.getByText("“apiharbor-keys” is not a project permission subject; remove this rule.")).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Remove the apiharbor-keys rule" }));
    expect(json()).toEqual([]);
  });

  it("shows only the granted subjects, disabled, when read-only", () => {
    render(<Harness readOnly initial={[{ subject: "role", action: ["read"] }]} />);
    expect(within(subject("Roles")).getByRole("checkbox", { name: "Read" })).toBeDisabled();
    expect(screen.queryByRole("group", { name: "Secrets" })).toBeNull();
    expect(screen.queryByRole("button", { name: /Remove/ })).toBeNull();
  });
});
