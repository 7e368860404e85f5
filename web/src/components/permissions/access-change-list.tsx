import {
  type AccessChange,
  type ChangeGroup,
  type DecidingRule,
  groupChanges,
  secretActionLabels,
} from "@keyhold/contract/permission-grid";
import { ChevronRight, Minus, Plus } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/cn";
import type { MemberChanges } from "./access-preview";

/**
 * Who gains and loses what, grouped so that it reads at a glance on a phone: one line per kind
 * of change ("Loses Read value in prod: 14 folders"), opened for the folders and the rule that
 * decided each. Part of the lazily loaded preview (it uses the grid's grouping).
 */
export function AccessChangeList({
  members,
  unchangedText,
}: {
  members: readonly MemberChanges[];
  /** What to say when nothing changes, in place of the general sentence. */
  unchangedText?: string;
}) {
  const changed = members.filter((entry) => entry.changes.length > 0);
  const unchanged = members.length - changed.length;
  if (changed.length === 0) {
    return (
      <p
        role="status"
        className="rounded-md border border-border bg-surface px-3 py-2 text-[13px] text-muted-foreground"
      >
        {unchangedText ??
          (members.length === 0
            ? "No user or identity holds this now: nobody's access to secrets changes."
            : `No change to anyone's access to secrets (${describeCount(members.length, "member")} checked).`)}
      </p>
    );
  }
  return (
    <div className="grid gap-3">
      <ul className="grid gap-3" aria-label="Access changes">
        {changed.map(({ member, changes }) => (
          <li key={`${member.kind}:${member.id}`} className="grid gap-1.5 rounded-lg border border-border p-3">
            <div className="flex flex-wrap items-center gap-2">
              <span className="min-w-0 truncate text-sm font-medium">{member.name}</span>
              <Badge tone="outline">{member.kind === "identity" ? "Identity" : "User"}</Badge>
            </div>
            <ul className="grid gap-1" aria-label={`Changes for ${member.name}`}>
              {groupChanges(changes).map((group) => (
                <ChangeGroupItem
                  key={`${group.change}:${group.environment}:${group.action}`}
                  group={group}
                  changes={changes}
                />
              ))}
            </ul>
          </li>
        ))}
      </ul>
      {unchanged > 0 ? (
        <p className="text-[13px] text-muted-foreground">No change for {describeCount(unchanged, "other member")}.</p>
      ) : null}
    </div>
  );
}

function ChangeGroupItem({ group, changes }: { group: ChangeGroup; changes: readonly AccessChange[] }) {
  const loses = group.change === "loses";
  const label = `${loses ? "Loses" : "Gains"} ${secretActionLabels[group.action]} in ${group.environment}`;
  const single = group.folders.length === 1 ? group.folders[0] : undefined;
  const reasons = group.folders.map((folder) => {
    const change = changes.find(
      (c) =>
        c.change === group.change &&
        c.environment === group.environment &&
        c.action === group.action &&
        c.folder === folder,
    );
    return { folder, reason: change ? reasonOf(change) : "" };
  });
  // One reason for every folder (the usual case) is said once, not once a line.
  const shared = reasons.every((entry) => entry.reason === reasons[0]?.reason) ? reasons[0]?.reason : undefined;
  const Icon = loses ? Minus : Plus;
  return (
    <li>
      <details className="group/change rounded-md">
        <summary
          className={cn(
            "flex cursor-pointer list-none items-start gap-1.5 rounded-md px-1 py-0.5 text-[13px] outline-none",
            "hover:bg-hover focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden",
          )}
        >
          <ChevronRight
            aria-hidden
            className="mt-0.5 size-3.5 shrink-0 text-muted-foreground transition-transform group-open/change:rotate-90"
          />
          <Icon
            aria-hidden
            className={cn(
              "mt-0.5 size-3.5 shrink-0",
              loses ? "text-destructive-subtle-foreground" : "text-success-subtle-foreground",
            )}
          />
          <span className="min-w-0 break-words">
            {label}:{" "}
            {single ? (
              <span className="font-mono text-xs">{single}</span>
            ) : (
              describeCount(group.folders.length, "folder")
            )}
          </span>
        </summary>
        <div className="mt-1 grid gap-1 pl-9 text-xs text-muted-foreground">
          {shared ? <p>{capitalise(shared)}</p> : null}
          <ul className={cn(shared ? "flex flex-wrap gap-x-3 gap-y-1" : "grid gap-1")}>
            {reasons.map(({ folder, reason }) => (
              <li key={folder} className="flex flex-wrap gap-x-2">
                <span className="font-mono text-foreground">{folder}</span>
                {shared ? null : <span>{reason}</span>}
              </li>
            ))}
          </ul>
        </div>
      </details>
    </li>
  );
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Why a cell changes, in words: the rule that granted it before, or that grants or refuses it now. */
function reasonOf(change: AccessChange): string {
  if (change.change === "gains") return change.after ? `granted by ${ruleName(change.after)}` : "";
  if (change.after?.rule.inverted) return `refused by ${ruleName(change.after)}`;
  return change.before ? `was granted by ${ruleName(change.before)}` : "";
}

/** "role Ops (secrets where environment = prod)". */
export function ruleName({ source, rule }: DecidingRule): string {
  const conditions = rule.conditions ? ` where ${describeConditions(rule.conditions)}` : "";
  return `${source.kind} ${source.name} (${rule.subject}${conditions})`;
}

function describeConditions(conditions: Record<string, unknown>): string {
  return Object.entries(conditions)
    .map(([field, value]) => {
      if (value && typeof value === "object" && !Array.isArray(value)) {
        return Object.entries(value as Record<string, unknown>)
          .map(([op, operand]) => `${field} ${operatorWords[op] ?? op} ${JSON.stringify(operand)}`)
          .join(" and ");
      }
      return `${field} = ${JSON.stringify(value)}`;
    })
    .join(" and ");
}

const operatorWords: Record<string, string> = { $eq: "=", $ne: "≠", $in: "in", $glob: "matches" };

function describeCount(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
