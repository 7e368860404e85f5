import { Plus, X } from "lucide-react";
import { lazy, Suspense } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
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
  /** The project whose folders a folder-path condition is counted against; no count without one. */
  projectId?: string | undefined;
}

// What to type, never a sample value: an empty field showing "dev" reads as a condition already set.
const placeholders: Record<string, string> = {
  environment: "Environment slug",
  secretPath: "Folder path",
  secretName: "Secret name",
  secretTags: "Type a tag, then Enter",
};

// The folder count brings the permission engine with it: loaded only when a path condition is shown.
const PathMatchCount = lazy(() => import("./path-match-count"));

/** The conditions of one rule: each row narrows the rule to matching environments, paths, names or tags. */
export function ConditionBuilder({
  id,
  subject,
  ruleName,
  rows,
  onChange,
  readOnly,
  errors,
  projectId,
}: ConditionBuilderProps) {
  const next = nextConditionRow(subject, rows);
  // One count per rule, under its last folder-path row: several path rows narrow together.
  const countAfter = rows.findLastIndex((row) => row.field === "secretPath");
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
            {/* On a narrow screen the value takes a line of its own below the field and operator. */}
            <div className="grid grid-cols-[minmax(0,1fr)_minmax(0,1fr)_2rem] items-start gap-2 sm:grid-cols-[9.5rem_9.5rem_minmax(0,1fr)_2rem]">
              <Select
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
                size="sm"
              >
                {conditionFieldsOf(subject).map((field) => (
                  <option key={field} value={field}>
                    {conditionFieldLabel(field)}
                  </option>
                ))}
              </Select>
              <Select
                aria-label={`${name}: operator`}
                value={row.operator}
                disabled={readOnly}
                onChange={(event) => {
                  const operator = event.target.value as ConditionOperator;
                  update(index, { ...row, operator, value: valueForOperator(row.value, operator) });
                }}
                size="sm"
              >
                {operatorsFor(subject, row.field).map((operator) => (
                  <option key={operator} value={operator} disabled={usedOperators.includes(operator)}>
                    {operatorLabel(operator)}
                  </option>
                ))}
              </Select>
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
                  className="max-sm:col-span-2"
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
                  className="h-8 font-mono text-[13px] placeholder:font-sans max-sm:col-span-2"
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
            {projectId && index === countAfter ? (
              <Suspense
                fallback={<p className="min-h-5 text-[13px] text-muted-foreground">Counting matching folders…</p>}
              >
                <PathMatchCount projectId={projectId} subject={subject} rows={rows} />
              </Suspense>
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
