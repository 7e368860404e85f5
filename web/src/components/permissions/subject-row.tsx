import type { PermissionRuleInput, ProjectSubject } from "@keyhold/contract";
import { Plus, Trash2 } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/cn";
import { ConditionBuilder } from "./condition-builder";
import { actionLabel, subjectLabel } from "./labels";
import {
  actionsOf,
  addRule,
  conditionFieldsOf,
  conditionRows,
  type IndexedRule,
  type RuleIssue,
  removeRule,
  setConditionRows,
  setInverted,
  subjectActions,
  toggleAction,
} from "./rule-model";

interface SubjectRowProps {
  id: string;
  subject: ProjectSubject;
  /** The actions the server knows for it, when known; else the contract's table. */
  offered: readonly string[] | undefined;
  /** This subject's rules; none means the row offers a fresh rule through its checkboxes. */
  entries: IndexedRule[];
  value: PermissionRuleInput[];
  onChange: (value: PermissionRuleInput[]) => void;
  readOnly: boolean;
  issues: RuleIssue[];
  projectId: string | undefined;
}

/** One subject of the grid: each of its rules as a row of action checkboxes, an allow/deny switch and conditions. */
export function SubjectRow({
  id,
  subject,
  offered,
  entries,
  value,
  onChange,
  readOnly,
  issues,
  projectId,
}: SubjectRowProps) {
  const label = subjectLabel(subject);
  const acceptsConditions = conditionFieldsOf(subject).length > 0;
  // With no rule yet, one empty row stands in; ticking an action creates the rule.
  const shown: (IndexedRule | undefined)[] = entries.length > 0 ? entries : [undefined];

  return (
    <div
      role="group"
      aria-labelledby={`${id}-name`}
      className="grid gap-x-6 gap-y-2 px-4 py-3 sm:grid-cols-[10.5rem_minmax(0,1fr)]"
    >
      <div className="pt-1">
        <h4 id={`${id}-name`} className="text-[13px] font-medium">
          {label}
        </h4>
        <code className="font-mono text-[11px] text-muted-foreground">{subject}</code>
      </div>
      <div className="grid gap-2">
        {shown.map((entry, position) => {
          const ruleId = `${id}-r${position}`;
          const ruleName = entry ? `${label} rule ${position + 1}` : label;
          const ruleIssues = entry ? issues.filter((issue) => issue.index === entry.index) : [];
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a rule's position within its subject keeps focus on the checkbox that created it
            <div
              key={position}
              className={cn(
                "grid gap-2",
                // A subject with conditions or several rules shows each rule as its own panel; a deny rule is marked in red.
                entry &&
                  (entries.length > 1 || hasConditions(entry.rule) || (acceptsConditions && !readOnly)) &&
                  "rounded-lg border border-border bg-surface/60 p-2.5",
                entry?.rule.inverted && "border-l-2 border-l-destructive",
              )}
            >
              <div className="flex flex-wrap items-start justify-between gap-2">
                <fieldset className="flex min-w-0 flex-wrap gap-1.5">
                  <legend className="sr-only">{`${ruleName}: actions`}</legend>
                  {actionChoices(subject, offered, entry?.rule).map((action) => (
                    <ActionCheckbox
                      key={action}
                      label={actionLabel(action)}
                      checked={entry ? actionsOf(entry.rule).includes(action) : false}
                      disabled={readOnly}
                      deny={entry?.rule.inverted === true}
                      onChange={(checked) => onChange(toggleAction(value, subject, entry?.index, action, checked))}
                    />
                  ))}
                </fieldset>
                {entry ? (
                  <div className="flex items-center gap-1">
                    {readOnly ? (
                      <Badge tone={entry.rule.inverted ? "destructive" : "success"} className="mt-1">
                        {entry.rule.inverted ? "Deny" : "Allow"}
                      </Badge>
                    ) : (
                      <EffectSwitch
                        name={`${ruleId}-effect`}
                        ruleName={ruleName}
                        inverted={entry.rule.inverted === true}
                        onChange={(inverted) => onChange(setInverted(value, entry.index, inverted))}
                      />
                    )}
                    {readOnly ? null : (
                      <Button
                        variant="ghost"
                        size="icon-sm"
                        aria-label={`Remove ${ruleName}`}
                        onClick={() => onChange(removeRule(value, entry.index))}
                      >
                        <Trash2 aria-hidden />
                      </Button>
                    )}
                  </div>
                ) : null}
              </div>
              {entry && acceptsConditions && (!readOnly || hasConditions(entry.rule)) ? (
                <ConditionBuilder
                  id={ruleId}
                  subject={subject}
                  ruleName={ruleName}
                  rows={conditionRows(entry.rule.conditions)}
                  onChange={(rows) => onChange(setConditionRows(value, entry.index, rows))}
                  readOnly={readOnly}
                  projectId={projectId}
                  errors={
                    new Map(
                      ruleIssues.flatMap((issue) =>
                        issue.condition === undefined ? [] : [[issue.condition, issue.message]],
                      ),
                    )
                  }
                />
              ) : null}
              {ruleIssues
                .filter((issue) => issue.condition === undefined)
                .map((issue) => (
                  <p key={issue.message} className="text-[13px] text-destructive-subtle-foreground">
                    {issue.message}
                  </p>
                ))}
            </div>
          );
        })}
        {readOnly || entries.length === 0 ? null : (
          <div>
            <Button
              variant="ghost"
              size="sm"
              className="-ml-2 h-7 text-muted-foreground"
              aria-label={`Add another ${label} rule`}
              onClick={() => onChange(addRule(value, subject))}
            >
              <Plus aria-hidden />
              Add rule
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}

function hasConditions(rule: PermissionRuleInput): boolean {
  return Object.keys(rule.conditions ?? {}).length > 0;
}

/**
 * The table's actions for the subject (those the server knows, when known), plus any action a
 * rule carries that they do not list.
 */
function actionChoices(
  subject: ProjectSubject,
  offered: readonly string[] | undefined,
  rule: PermissionRuleInput | undefined,
): string[] {
  const known = offered
    ? subjectActions(subject).filter((action) => offered.includes(action))
    : subjectActions(subject);
  const extra = rule ? actionsOf(rule).filter((action) => !known.includes(action)) : [];
  return [...known, ...extra];
}

interface ActionCheckboxProps {
  label: string;
  checked: boolean;
  disabled: boolean;
  deny: boolean;
  onChange: (checked: boolean) => void;
}

function ActionCheckbox({ label, checked, disabled, deny, onChange }: ActionCheckboxProps) {
  return (
    <label
      className={cn(
        "inline-flex h-7 cursor-pointer select-none items-center gap-1.5 rounded-md border border-border bg-card px-2 text-[13px]",
        "transition-colors hover:bg-hover has-focus-visible:ring-2 has-focus-visible:ring-ring has-disabled:cursor-default",
        deny
          ? "has-checked:border-destructive/40 has-checked:bg-destructive-subtle has-checked:text-destructive-subtle-foreground"
          : "has-checked:border-accent/40 has-checked:bg-accent-subtle has-checked:text-accent-subtle-foreground",
      )}
    >
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        className={cn("size-3.5 outline-none", deny ? "accent-destructive" : "accent-accent")}
      />
      {label}
    </label>
  );
}

interface EffectSwitchProps {
  name: string;
  ruleName: string;
  inverted: boolean;
  onChange: (inverted: boolean) => void;
}

/** Allow or deny, as two radio buttons (arrow keys move between them). */
function EffectSwitch({ name, ruleName, inverted, onChange }: EffectSwitchProps) {
  const option = (deny: boolean) => (
    <label
      className={cn(
        "inline-flex h-6 cursor-pointer items-center rounded px-2 text-xs font-medium text-muted-foreground transition-colors",
        "has-focus-visible:ring-2 has-focus-visible:ring-ring has-disabled:cursor-default",
        deny
          ? "has-checked:bg-destructive-subtle has-checked:text-destructive-subtle-foreground"
          : "has-checked:bg-success-subtle has-checked:text-success-subtle-foreground",
      )}
    >
      <input type="radio" name={name} className="sr-only" checked={inverted === deny} onChange={() => onChange(deny)} />
      {deny ? "Deny" : "Allow"}
    </label>
  );
  return (
    <div
      role="radiogroup"
      aria-label={`${ruleName}: effect`}
      className="inline-flex items-center gap-0.5 rounded-md border border-border bg-card p-0.5"
    >
      {option(false)}
      {option(true)}
    </div>
  );
}
