import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import type { SecretChange } from "../api";
import { type ChangeGroup, groupChanges } from "../history-model";

const tones = { added: "success", removed: "destructive", changed: "warning", structure: "neutral" } as const;
const marks = { added: "+", removed: "−", changed: "~", structure: "•" } as const;

interface ChangeListProps {
  changes: readonly SecretChange[];
  /** The words for each group: a commit says what it did, a preview what the rollback will do. */
  labels: Record<Exclude<ChangeGroup, "structure">, string>;
  /** Extra content after a secret's key (a reveal, in the preview). */
  renderSecret?: (change: SecretChange) => ReactNode;
}

/** Changes by group: keys added, removed and changed (names only), then folders and imports. */
export function ChangeList({ changes, labels, renderSecret }: ChangeListProps) {
  const groups = groupChanges(changes);
  const titles: Record<ChangeGroup, string> = { ...labels, structure: "Folders and imports" };
  return (
    <div className="grid gap-3">
      {(Object.keys(groups) as ChangeGroup[]).map((group) =>
        groups[group].length === 0 ? null : (
          <section key={group} aria-label={titles[group]} className="grid gap-1.5">
            <h3 className="flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
              {titles[group]}
              <Badge tone={tones[group]}>{groups[group].length}</Badge>
            </h3>
            <ul className="grid gap-1">
              {groups[group].map((change) => (
                <li
                  key={`${change.type}:${change.folderPath}:${change.name}`}
                  className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-[13px]"
                >
                  <span aria-hidden className="w-3 text-center font-mono text-muted-foreground">
                    {marks[group]}
                  </span>
                  <span className="min-w-0 break-all font-mono">
                    {change.folderPath && change.folderPath !== "/" ? (
                      <span className="text-muted-foreground">{change.folderPath}/</span>
                    ) : null}
                    {change.name}
                  </span>
                  {change.type !== "secret" ? (
                    <span className="text-muted-foreground">
                      {change.type}{" "}
                      {change.changeType === "add" ? "added" : change.changeType === "delete" ? "removed" : "changed"}
                    </span>
                  ) : null}
                  {change.type === "secret" && renderSecret ? renderSecret(change) : null}
                </li>
              ))}
            </ul>
          </section>
        ),
      )}
    </div>
  );
}
