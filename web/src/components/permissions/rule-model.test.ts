import type { PermissionRuleInput } from "@keyhold/contract";
import { describe, expect, it } from "vitest";
import {
  addRule,
  conditionRows,
  groupRules,
  nextConditionRow,
  rowsToConditions,
  setConditionRows,
  setInverted,
  toggleAction,
  validatePermissionRules,
  valueForOperator,
} from "./rule-model";

const secretReader: PermissionRuleInput = {
  subject: "secrets",
  action: ["read"],
  conditions: { environment: "dev", secretPath: { $glob: "/**" } },
};

describe("conditions", () => {
  it("reads a bare string as equality and an operator object as one row per operator", () => {
    expect(conditionRows({ environment: "dev", secretPath: { $glob: "/app/**", $ne: "/app/keys" } })).toEqual([
      { field: "environment", operator: "$eq", value: "dev" },
      { field: "secretPath", operator: "$glob", value: "/app/**" },
      { field: "secretPath", operator: "$ne", value: "/app/keys" },
    ]);
    expect(conditionRows({ secretTags: { $in: ["a", "b"] } })).toEqual([
      { field: "secretTags", operator: "$in", value: ["a", "b"] },
    ]);
    expect(conditionRows(undefined)).toEqual([]);
  });

  it("writes rows back, keeping a bare string where the field was one and is still only equality", () => {
    const previous = { environment: "dev", secretPath: { $glob: "/**" } };
    expect(rowsToConditions(conditionRows(previous), previous)).toEqual(previous);
    expect(rowsToConditions([{ field: "environment", operator: "$eq", value: "prod" }])).toEqual({
      environment: { $eq: "prod" },
    });
    expect(
      rowsToConditions(
        [
          { field: "environment", operator: "$eq", value: "dev" },
          { field: "environment", operator: "$ne", value: "prod" },
        ],
        previous,
      ),
    ).toEqual({ environment: { $eq: "dev", $ne: "prod" } });
    expect(rowsToConditions([])).toBeUndefined();
  });

  it("removes the conditions key when the last condition goes", () => {
    const [rule] = setConditionRows([secretReader], 0, []);
    expect(rule).toEqual({ subject: "secrets", action: ["read"] });
  });

  it("offers the next unused field and operator, and only $in for tags", () => {
    expect(nextConditionRow("secrets", [])).toEqual({ field: "environment", operator: "$eq", value: "" });
    expect(nextConditionRow("secrets", [{ field: "environment", operator: "$eq", value: "dev" }])).toEqual({
      field: "environment",
      operator: "$ne",
      value: "",
    });
    expect(nextConditionRow("role", [])).toBeUndefined();
  });

  it("turns a value into a list for $in and back into text for the others", () => {
    expect(valueForOperator("dev", "$in")).toEqual(["dev"]);
    expect(valueForOperator("  ", "$in")).toEqual([]);
    expect(valueForOperator(["dev", "prod"], "$eq")).toBe("dev");
    expect(valueForOperator([], "$glob")).toBe("");
  });
});

describe("actions", () => {
  it("creates a plain allow rule when an action is ticked on a subject without rules", () => {
    expect(toggleAction([], "role", undefined, "read", true)).toEqual([{ subject: "role", action: ["read"] }]);
  });

  it("keeps the table's order of actions whatever order they are ticked in", () => {
    let rules = toggleAction([], "role", undefined, "delete", true);
    rules = toggleAction(rules, "role", 0, "read", true);
    expect(rules[0]?.action).toEqual(["read", "delete"]);
  });

  it("drops a subject's only plain rule with its last action, but keeps a conditional or deny rule", () => {
    expect(toggleAction([{ subject: "role", action: ["read"] }], "role", 0, "read", false)).toEqual([]);
    expect(toggleAction([secretReader], "secrets", 0, "read", false)).toEqual([{ ...secretReader, action: [] }]);
    const deny: PermissionRuleInput = { subject: "role", action: "delete", inverted: true };
    expect(toggleAction([deny], "role", 0, "delete", false)).toEqual([{ ...deny, action: [] }]);
  });

  it("keeps actions the table does not list", () => {
    const rule: PermissionRuleInput = { subject: "role", action: ["read", "future-action"] };
    expect(toggleAction([rule], "role", 0, "edit", true)[0]?.action).toEqual(["read", "edit", "future-action"]);
  });

  it("marks a rule as deny and back, without leaving inverted: false behind", () => {
    const denied = setInverted([secretReader], 0, true);
    expect(denied[0]?.inverted).toBe(true);
    expect(setInverted(denied, 0, false)[0]).toEqual(secretReader);
  });

  it("adds an empty rule for a subject at the end", () => {
    expect(addRule([secretReader], "secrets")).toEqual([secretReader, { subject: "secrets", action: [] }]);
  });
});

describe("grouping", () => {
  it("groups known subjects with their positions and keeps the unknown ones apart", () => {
    const rules: PermissionRuleInput[] = [secretReader, { subject: "apiharbor-keys", action: ["read"] }, secretReader];
    const { bySubject, other } = groupRules(rules);
    expect(bySubject.get("secrets")?.map((entry) => entry.index)).toEqual([0, 2]);
    expect(other).toEqual([{ rule: rules[1], index: 1 }]);
  });
});

describe("validation", () => {
  it("accepts a valid rule set", () => {
    expect(validatePermissionRules([secretReader, { subject: "role", action: ["read"], inverted: true }])).toEqual([]);
  });

  it("asks for an action, a value, a list value and a path starting with a slash", () => {
    const rules: PermissionRuleInput[] = [
      { subject: "role", action: [] },
      {
        subject: "secrets",
        action: ["read"],
        conditions: { environment: { $eq: " " }, secretTags: { $in: [] }, secretPath: { $eq: "app" } },
      },
    ];
    expect(validatePermissionRules(rules)).toEqual([
      { index: 0, message: "Choose at least one action." },
      { index: 1, condition: 0, message: "Enter a value for environment." },
      { index: 1, condition: 1, message: "Add at least one value for secret tags." },
      {
        index: 1,
        condition: 2,
        message: "A secret path starts with “/”, for example /app/config (or use “matches glob”).",
      },
    ]);
  });

  it("allows a glob path without a leading slash, as the server does", () => {
    expect(
      validatePermissionRules([{ subject: "secrets", action: ["read"], conditions: { secretPath: { $glob: "**" } } }]),
    ).toEqual([]);
  });

  it("names unknown subjects, operators the field does not take, and actions the contract refuses", () => {
    expect(
      validatePermissionRules([
        { subject: "apiharbor-keys", action: ["read"] },
        { subject: "secrets", action: ["read"], conditions: { secretTags: { $eq: "x" } } },
        { subject: "role", action: ["fly"] },
      ]),
    ).toEqual([
      { index: 0, message: "“apiharbor-keys” is not a project permission subject; remove this rule." },
      { index: 1, condition: 0, message: "Secret tags cannot use this operator." },
      { index: 2, message: 'Action "fly" does not apply to "role"' },
    ]);
  });
});
