import { type PermissionRuleInput, type ProjectSubject, projectSubjects } from "@keyhold/contract";
import { Search, ShieldOff, Trash2 } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { subjectGroups, subjectLabel } from "./labels";
import { groupRules, removeRule, validatePermissionRules } from "./rule-model";
import type { ServerActions } from "./server-actions";
import { SubjectRow } from "./subject-row";

export interface PermissionRulesEditorProps {
  /** The rules, as the API takes them. The editor keeps no copy: every edit calls `onChange`. */
  value: PermissionRuleInput[];
  onChange: (value: PermissionRuleInput[]) => void;
  /** Shows the rules without letting them change (built-in roles, or no permission to edit). */
  readOnly?: boolean;
  /** Shows validation messages beside the rules, e.g. once a save has been attempted. */
  showErrors?: boolean;
  /** Names the editor for assistive technology; "Permission rules" unless given. */
  label?: string;
  /** The subjects and actions the server knows (`useServerActions`); the contract's whole table when unset. */
  serverActions?: ServerActions | undefined;
  /** The project the rules apply in: folder-path conditions then count the folders they match there. */
  projectId?: string | undefined;
}

/** Subjects in the builder's groups, then any subject of the contract's table no group names. */
function groupedSubjects(): { title: string; subjects: ProjectSubject[] }[] {
  const known = new Set<string>(projectSubjects);
  const groups = subjectGroups.map((group) => ({
    title: group.title,
    subjects: group.subjects.filter((s): s is ProjectSubject => known.has(s)),
  }));
  const placed = new Set(groups.flatMap((group) => group.subjects));
  const rest = projectSubjects.filter((s) => !placed.has(s));
  return rest.length > 0 ? [...groups, { title: "Other", subjects: rest }] : groups;
}

/**
 * The visual permission builder: the contract's subjects down the side, each with its actions
 * as checkboxes, allow or deny per rule, and conditions (environment, secret path, name, tags)
 * where the subject accepts them. Rules for subjects it does not know are kept, shown apart.
 */
export function PermissionRulesEditor({
  value,
  onChange,
  readOnly = false,
  showErrors = false,
  label = "Permission rules",
  serverActions,
  projectId,
}: PermissionRulesEditorProps) {
  const id = useId();
  const [filter, setFilter] = useState("");
  const [onlyGranted, setOnlyGranted] = useState(false);
  const { bySubject, other } = useMemo(() => groupRules(value), [value]);
  const issues = useMemo(() => (showErrors ? validatePermissionRules(value) : []), [showErrors, value]);
  const hideEmpty = readOnly || onlyGranted;
  const needle = filter.trim().toLowerCase();

  const groups = groupedSubjects()
    .map((group) => ({
      ...group,
      subjects: group.subjects.filter(
        (subject) =>
          (!hideEmpty || bySubject.has(subject)) &&
          // A subject the server does not know is offered only to show rules that already name it.
          (!serverActions || Object.hasOwn(serverActions, subject) || bySubject.has(subject)) &&
          (needle === "" || subject.includes(needle) || subjectLabel(subject).toLowerCase().includes(needle)),
      ),
    }))
    .filter((group) => group.subjects.length > 0);

  return (
    <section aria-label={label} className="grid gap-3">
      {readOnly ? null : (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="relative w-full max-w-xs">
            <label htmlFor={`${id}-filter`} className="sr-only">
              Filter subjects
            </label>
            <Search
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              id={`${id}-filter`}
              type="search"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
              placeholder="Filter subjects"
              className="h-8 pl-9 text-[13px]"
              autoComplete="off"
            />
          </div>
          <div className="flex items-center gap-2">
            <Switch id={`${id}-only`} checked={onlyGranted} onCheckedChange={setOnlyGranted} />
            <label htmlFor={`${id}-only`} className="text-[13px] text-muted-foreground">
              Only subjects with rules
            </label>
          </div>
        </div>
      )}

      {groups.length === 0 && other.length === 0 ? (
        <div className="flex flex-col items-center rounded-xl border border-dashed border-border px-6 py-10 text-center">
          <ShieldOff aria-hidden className="mb-3 size-5 text-muted-foreground" />
          <p className="text-sm text-muted-foreground">
            {value.length === 0 && hideEmpty && needle === ""
              ? "No permissions: these rules grant nothing."
              : "No subject matches the filter."}
          </p>
        </div>
      ) : null}

      {groups.map((group) => (
        <div key={group.title} className="overflow-hidden rounded-xl border border-border bg-card shadow-xs">
          <h3 className="border-b border-border bg-surface px-4 py-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
            {group.title}
          </h3>
          <div className="divide-y divide-border">
            {group.subjects.map((subject) => (
              <SubjectRow
                key={subject}
                id={`${id}-${subject}`}
                subject={subject}
                offered={serverActions?.[subject]}
                entries={bySubject.get(subject) ?? []}
                value={value}
                onChange={onChange}
                readOnly={readOnly}
                issues={issues}
                projectId={projectId}
              />
            ))}
          </div>
        </div>
      ))}

      {other.length > 0 ? (
        <div className="overflow-hidden rounded-xl border border-border bg-card shadow-xs">
          <div className="border-b border-border bg-surface px-4 py-2">
            <h3 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Other rules</h3>
            <p className="mt-0.5 text-xs text-muted-foreground">
              Subjects this console does not edit. They are kept as they are
              {readOnly ? "." : " unless you remove them."}
            </p>
          </div>
          <ul className="divide-y divide-border">
            {other.map(({ rule, index }) => (
              <li key={index} className="flex items-start justify-between gap-3 px-4 py-2.5">
                <div className="min-w-0">
                  <code className="font-mono text-[13px]">{rule.subject}</code>
                  <p className="mt-0.5 truncate font-mono text-xs text-muted-foreground">
                    {rule.inverted ? "deny " : ""}
                    {[rule.action].flat().join(", ")}
                  </p>
                  {issues
                    .filter((issue) => issue.index === index)
                    .map((issue) => (
                      <p key={issue.message} className="mt-1 text-[13px] text-destructive-subtle-foreground">
                        {issue.message}
                      </p>
                    ))}
                </div>
                {readOnly ? null : (
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    aria-label={`Remove the ${rule.subject} rule`}
                    onClick={() => onChange(removeRule(value, index))}
                  >
                    <Trash2 aria-hidden />
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
