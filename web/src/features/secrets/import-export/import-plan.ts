import type { ImportEntry, InvalidLine, ParsedFile } from "./import-entries";

/** A secret the folder holds now, as the import compares it: its value only when the caller may read it. */
export interface CurrentSecret {
  secretKey: string;
  /** Undefined when the caller may not read the value: the import cannot tell whether it changes. */
  secretValue: string | undefined;
  secretComment: string;
}

export type PlanStatus = "new" | "changed" | "unchanged";

/** One key of the file, against what the folder holds: what importing it would do. */
export interface PlannedSecret extends ImportEntry {
  status: PlanStatus;
  valueChanged: boolean;
  commentChanged: boolean;
  /** The folder's value could not be read, so it is taken for changed. */
  valueUnknown: boolean;
}

export interface ImportPlan {
  /** Every valid key of the file, in file order. */
  items: PlannedSecret[];
  invalid: InvalidLine[];
  counts: Record<PlanStatus | "invalid", number>;
}

/**
 * Compares the file with the folder. The folder's values are used here and nowhere else: the
 * plan keeps whether each value changes, never the old value (the preview reads one again
 * when a person asks to compare). A comment counts only when the file gives one.
 */
export function planImport(parsed: ParsedFile, current: Iterable<CurrentSecret>): ImportPlan {
  const existing = new Map<string, CurrentSecret>();
  for (const secret of current) existing.set(secret.secretKey, secret);
  const counts = { new: 0, changed: 0, unchanged: 0, invalid: parsed.invalid.length };
  const items = parsed.entries.map(({ secretKey, secretValue, secretComment, line }): PlannedSecret => {
    const now = existing.get(secretKey);
    // Written out field by field: a spread of each entry cost more than the comparison itself.
    if (!now) {
      counts.new++;
      const status = "new";
      return {
        secretKey,
        secretValue,
        secretComment,
        line,
        status,
        valueChanged: true,
        commentChanged: false,
        valueUnknown: false,
      };
    }
    const valueUnknown = now.secretValue === undefined;
    const valueChanged = valueUnknown || now.secretValue !== secretValue;
    const commentChanged = secretComment !== undefined && secretComment !== now.secretComment;
    const status = valueChanged || commentChanged ? "changed" : "unchanged";
    counts[status]++;
    return { secretKey, secretValue, secretComment, line, status, valueChanged, commentChanged, valueUnknown };
  });
  return { items, invalid: parsed.invalid, counts };
}

export interface UpsertItem {
  secretKey: string;
  secretValue: string;
  secretComment?: string;
}

/** What one upsert batch sends: every new and changed key, with its comment when the file gives one. */
export function upsertItems(plan: ImportPlan): UpsertItem[] {
  return plan.items
    .filter((item) => item.status !== "unchanged")
    .map(({ secretKey, secretValue, secretComment }) =>
      secretComment === undefined ? { secretKey, secretValue } : { secretKey, secretValue, secretComment },
    );
}
