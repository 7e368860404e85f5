import {
  type PermissionRuleInput,
  PermissionRuleInputSchema,
  type ProjectSubject,
  projectPermissionActions,
  projectPermissionConditionFields,
} from "@keyhold/contract";
import { conditionFieldLabel } from "./labels";

/*
 * The permission editor's rule model: pure functions over the list of rules as the API takes
 * it (`PermissionRuleInput[]`). The editor keeps no copy of its own, so what is on screen is
 * always exactly what would be sent; every edit returns a new list.
 */

export const conditionOperators = ["$eq", "$ne", "$in", "$glob"] as const;
export type ConditionOperator = (typeof conditionOperators)[number];

/** One condition as the builder shows it: a field, an operator and its value (a list for `$in`). */
export interface ConditionRow {
  field: string;
  operator: ConditionOperator;
  value: string | string[];
}

type Conditions = NonNullable<PermissionRuleInput["conditions"]>;
type OperatorObject = Partial<Record<ConditionOperator, string | string[]>>;

/** Fields whose operators are narrower than all four (Infisical's schemas per subject and field). */
const operatorLimits: Record<string, readonly ConditionOperator[]> = {
  secretTags: ["$in"],
  eventType: ["$eq", "$ne", "$in"],
  identityId: ["$eq", "$ne", "$in"],
};
/** Subjects with the older condition schema: no glob on the environment. */
const noEnvironmentGlob = new Set<string>(["secret-folders", "secret-rotation"]);

export function isKnownSubject(subject: string): subject is ProjectSubject {
  return Object.hasOwn(projectPermissionActions, subject);
}

export function subjectActions(subject: string): readonly string[] {
  return isKnownSubject(subject) ? projectPermissionActions[subject] : [];
}

export function conditionFieldsOf(subject: string): readonly string[] {
  return isKnownSubject(subject) ? (projectPermissionConditionFields[subject] ?? []) : [];
}

export function operatorsFor(subject: string, field: string): readonly ConditionOperator[] {
  const limited = operatorLimits[field];
  if (limited) return limited;
  if (field === "environment" && noEnvironmentGlob.has(subject)) return ["$eq", "$ne", "$in"];
  return conditionOperators;
}

/** A rule's actions as a list, whichever form it was written in. */
export function actionsOf(rule: PermissionRuleInput): string[] {
  return [rule.action].flat();
}

const isOperator = (key: string): key is ConditionOperator => (conditionOperators as readonly string[]).includes(key);

/** The rows of a rule's conditions: a bare string is equality; an operator object gives one row per operator. */
export function conditionRows(conditions: PermissionRuleInput["conditions"]): ConditionRow[] {
  const rows: ConditionRow[] = [];
  for (const [field, condition] of Object.entries(conditions ?? {})) {
    if (typeof condition === "string") {
      rows.push({ field, operator: "$eq", value: condition });
      continue;
    }
    for (const [operator, value] of Object.entries(condition as OperatorObject)) {
      if (!isOperator(operator)) continue;
      rows.push({
        field,
        operator,
        value: operator === "$in" ? [value ?? []].flat() : String(value ?? ""),
      });
    }
  }
  return rows;
}

/**
 * Rows back into the API's conditions. A field keeps the bare-string form it was written in
 * while its only condition is equality; anything else is an operator object.
 */
export function rowsToConditions(
  rows: readonly ConditionRow[],
  previous?: PermissionRuleInput["conditions"],
): Conditions | undefined {
  if (rows.length === 0) return undefined;
  const byField = new Map<string, ConditionRow[]>();
  for (const row of rows) byField.set(row.field, [...(byField.get(row.field) ?? []), row]);
  const conditions: Conditions = {};
  for (const [field, fieldRows] of byField) {
    const [only] = fieldRows;
    if (fieldRows.length === 1 && only?.operator === "$eq" && typeof previous?.[field] === "string") {
      conditions[field] = String(only.value);
      continue;
    }
    const object: OperatorObject = {};
    for (const row of fieldRows) object[row.operator] = row.value;
    conditions[field] = object as Conditions[string];
  }
  return conditions;
}

export interface IndexedRule {
  rule: PermissionRuleInput;
  /** Position in the full list, which edits address. */
  index: number;
}

/** Rules grouped by the subjects the builder knows, in the table's order; the rest kept apart, untouched. */
export function groupRules(rules: readonly PermissionRuleInput[]): {
  bySubject: Map<ProjectSubject, IndexedRule[]>;
  other: IndexedRule[];
} {
  const bySubject = new Map<ProjectSubject, IndexedRule[]>();
  const other: IndexedRule[] = [];
  rules.forEach((rule, index) => {
    if (isKnownSubject(rule.subject))
      bySubject.set(rule.subject, [...(bySubject.get(rule.subject) ?? []), { rule, index }]);
    else other.push({ rule, index });
  });
  return { bySubject, other };
}

function replaceAt(rules: readonly PermissionRuleInput[], index: number, rule: PermissionRuleInput) {
  return rules.map((current, i) => (i === index ? rule : current));
}

export function removeRule(rules: readonly PermissionRuleInput[], index: number): PermissionRuleInput[] {
  return rules.filter((_, i) => i !== index);
}

/** A new, empty rule for a subject (its actions are chosen next). */
export function addRule(rules: readonly PermissionRuleInput[], subject: ProjectSubject): PermissionRuleInput[] {
  return [...rules, { subject, action: [] }];
}

/**
 * Ticks or unticks one action. Without a rule (`index` undefined) ticking creates a plain allow
 * rule. A subject's only, plain rule disappears with its last action, so the grid row simply
 * reads as "nothing granted"; a rule with conditions or a deny stays, asking for an action.
 */
export function toggleAction(
  rules: readonly PermissionRuleInput[],
  subject: ProjectSubject,
  index: number | undefined,
  action: string,
  checked: boolean,
): PermissionRuleInput[] {
  const rule = index === undefined ? undefined : rules[index];
  if (index === undefined || !rule) return checked ? [...rules, { subject, action: [action] }] : [...rules];
  const current = actionsOf(rule);
  const chosen = new Set(checked ? [...current, action] : current.filter((a) => a !== action));
  // The table's order first, then actions the table does not list (kept as they came).
  const known = subjectActions(subject);
  const next = [...known.filter((a) => chosen.has(a)), ...current.filter((a) => !known.includes(a) && chosen.has(a))];
  const plain = !rule.inverted && Object.keys(rule.conditions ?? {}).length === 0;
  const alone = rules.filter((r) => r.subject === subject).length === 1;
  if (next.length === 0 && plain && alone) return removeRule(rules, index);
  return replaceAt(rules, index, { ...rule, action: next });
}

export function setInverted(rules: readonly PermissionRuleInput[], index: number, inverted: boolean) {
  const rule = rules[index];
  if (!rule) return [...rules];
  const { inverted: _old, ...rest } = rule;
  return replaceAt(rules, index, inverted ? { ...rest, inverted: true } : rest);
}

export function setConditionRows(rules: readonly PermissionRuleInput[], index: number, rows: readonly ConditionRow[]) {
  const rule = rules[index];
  if (!rule) return [...rules];
  const { conditions: previous, ...rest } = rule;
  const conditions = rowsToConditions(rows, previous);
  return replaceAt(rules, index, conditions ? { ...rest, conditions } : rest);
}

/** The first field and operator pair a rule does not use yet, for "Add condition"; undefined when all are used. */
export function nextConditionRow(subject: string, rows: readonly ConditionRow[]): ConditionRow | undefined {
  for (const field of conditionFieldsOf(subject)) {
    for (const operator of operatorsFor(subject, field)) {
      if (!rows.some((row) => row.field === field && row.operator === operator)) {
        return { field, operator, value: operator === "$in" ? [] : "" };
      }
    }
  }
  return undefined;
}

/** A row's value after its operator changes: a list for `$in`, otherwise text (the first item of a list). */
export function valueForOperator(value: string | string[], operator: ConditionOperator): string | string[] {
  if (operator === "$in") return Array.isArray(value) ? value : value.trim() ? [value.trim()] : [];
  return Array.isArray(value) ? (value[0] ?? "") : value;
}

export interface RuleIssue {
  /** The rule's position in the list. */
  index: number;
  /** The condition row's position, for problems with one condition. */
  condition?: number;
  message: string;
}

function conditionIssue(subject: string, row: ConditionRow): string | undefined {
  const label = conditionFieldLabel(row.field);
  if (!conditionFieldsOf(subject).includes(row.field)) return `${label} is not a condition this subject accepts.`;
  if (!operatorsFor(subject, row.field).includes(row.operator)) return `${label} cannot use this operator.`;
  if (Array.isArray(row.value)) {
    if (row.value.length === 0) return `Add at least one value for ${label.toLowerCase()}.`;
    if (row.value.some((v) => v.trim() === "")) return `Values for ${label.toLowerCase()} cannot be empty.`;
  } else if (row.value.trim() === "") {
    return `Enter a value for ${label.toLowerCase()}.`;
  }
  if (row.field === "secretPath" && row.operator !== "$glob" && [row.value].flat().some((v) => !v.startsWith("/"))) {
    return "A secret path starts with “/”, for example /app/config (or use “matches glob”).";
  }
  return undefined;
}

/**
 * Everything that would stop the server from accepting the rules, in words for the person
 * editing them: first the builder's own checks, then the contract's schema for what is left.
 */
export function validatePermissionRules(rules: readonly PermissionRuleInput[]): RuleIssue[] {
  const issues: RuleIssue[] = [];
  rules.forEach((rule, index) => {
    const found: RuleIssue[] = [];
    if (!isKnownSubject(rule.subject)) {
      found.push({ index, message: `“${rule.subject}” is not a project permission subject; remove this rule.` });
    } else {
      if (actionsOf(rule).length === 0) found.push({ index, message: "Choose at least one action." });
      conditionRows(rule.conditions).forEach((row, condition) => {
        const message = conditionIssue(rule.subject, row);
        if (message) found.push({ index, condition, message });
      });
    }
    if (found.length === 0) {
      const parsed = PermissionRuleInputSchema.safeParse(rule);
      if (!parsed.success) for (const issue of parsed.error.issues) found.push({ index, message: issue.message });
    }
    issues.push(...found);
  });
  return issues;
}
