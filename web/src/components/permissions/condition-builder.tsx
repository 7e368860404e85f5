import { Plus, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input, inputClasses } from "@/components/ui/input";
import { cn } from "@/lib/cn";
import { conditionFieldLabel, operatorLabel } from "./labels";
import {
  type ConditionOperator,
  type ConditionRow,
  conditionFieldsOf,
  nextConditionRow,
  operatorsFor,
  valueForOperator,
} from "./rule-model";
import { ValuesInput } from "./values-input";

interface ConditionBuilderProps {
  /** Prefix for element ids, unique per rule. */
  id: string;
  subject: string;
  /** Names the rule in labels, e.g. "Secrets rule 2". */
  ruleName: string;
  rows: ConditionRow[];
  onChange: (rows: ConditionRow[]) => void;
  readOnly: boolean;
  /** Messages per row index, shown under the row. */
  errors: Map<number, string>;
}

/*
 * Native selects: keyboard and screen-reader behaviour come with the browser, and nothing is
 * injected into the page at runtime (the console runs under a strict style-src CSP).
 */
const selectClasses = cn(inputClasses, "h-8 appearance-auto px-2 text-[13px]");

const placeholders: Record<string, string> = {
  environment: "dev",
  secretPath: "/app/**",
  secretName: "DB_PASSWORD",
  secretTags: "Type a tag, then Enter",
};

/** The conditions of one rule: each row narrows the rule to matching environments, paths, names or tags. */
export function ConditionBuilder({ id, subject, ruleName, rows, onChange, readOnly, errors }: ConditionBuilderProps) {
  const next = nextConditionRow(subject, rows);
  const update = (index: number, row: ConditionRow) => onChange(rows.map((r, i) => (i === index ? row : r)));

  return (
    <div className="grid gap-2">
      {rows.length === 0 && readOnly ? null : (
        <p className="text-xs font-medium text-muted-foreground">
          {rows.length === 0 ? "Applies everywhere. Add a condition to narrow it." : "Only where all of these hold:"}
        </p>
      )}
      {rows.map((row, index) => {
        const rowId = `${id}-c${index}`;
        const error = errors.get(index);
        const name = `${ruleName}, condition ${index + 1}`;
        const usedOperators = rows.filter((r, i) => i !== index && r.field === row.field).map((r) => r.operator);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their position
          <div key={index} className="grid gap-1">
            <div className="grid grid-cols-[9.5rem_9.5rem_minmax(0,1fr)_2rem] items-start gap-2">
              <select
                aria-label={`${name}: field`}
                value={row.field}
                disabled={readOnly}
                onChange={(event) => {
                  const field = event.target.value;
                  const operator = operatorsFor(subject, field).includes(row.operator)
                    ? row.operator
                    : (operatorsFor(subject, field)[0] ?? "$eq");
                  update(index, { field, operator, value: valueForOperator(row.value, operator) });
                }}
                className={selectClasses}
              >
                {conditionFieldsOf(subject).map((field) => (
                  <option key={field} value={field}>
                    {conditionFieldLabel(field)}
                  </option>
                ))}
              </select>
              <select
                aria-label={`${name}: operator`}
                value={row.operator}
                disabled={readOnly}
                onChange={(event) => {
                  const operator = event.target.value as ConditionOperator;
                  update(index, { ...row, operator, value: valueForOperator(row.value, operator) });
                }}
                className={selectClasses}
              >
                {operatorsFor(subject, row.field).map((operator) => (
                  <option key={operator} value={operator} disabled={usedOperators.includes(operator)}>
                    {operatorLabel(operator)}
                  </option>
                ))}
              </select>
              <label htmlFor={`${rowId}-value`} className="sr-only">
                {`${name}: ${row.operator === "$in" ? "values" : "value"}`}
              </label>
              {Array.isArray(row.value) ? (
                <ValuesInput
                  id={`${rowId}-value`}
                  label={`${name}: values`}
                  value={row.value}
                  onChange={(value) => update(index, { ...row, value })}
                  disabled={readOnly}
                  invalid={Boolean(error)}
                  describedBy={error ? `${rowId}-error` : undefined}
                  placeholder={placeholders[row.field] ?? "Type a value, then Enter"}
                />
              ) : (
                <Input
                  id={`${rowId}-value`}
                  value={row.value}
                  onChange={(event) => update(index, { ...row, value: event.target.value })}
                  readOnly={readOnly}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${rowId}-error` : undefined}
                  placeholder={placeholders[row.field]}
                  className="h-8 font-mono text-[13px] placeholder:font-sans"
                  autoComplete="off"
                  spellCheck={false}
                />
              )}
              {readOnly ? null : (
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label={`Remove ${name}`}
                  onClick={() => onChange(rows.filter((_, i) => i !== index))}
                >
                  <X aria-hidden />
                </Button>
              )}
            </div>
            {error ? (
              <p id={`${rowId}-error`} className="text-[13px] text-destructive-subtle-foreground">
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
      {readOnly || !next ? null : (
        <div>
          <Button
            variant="ghost"
            size="sm"
            className="-ml-2 h-7 text-muted-foreground"
            onClick={() => onChange([...rows, next])}
          >
            <Plus aria-hidden />
            Add condition
          </Button>
        </div>
      )}
    </div>
  );
}
