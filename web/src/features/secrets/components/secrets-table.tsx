import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useCallback, useLayoutEffect, useRef, useState } from "react";
import { useRevealed } from "@/hooks/use-remask";
import { cn } from "@/lib/cn";
import type { SecretFolder } from "../api";
import type { SecretListRow } from "../secret-rows";
import { pendingChange, stageDelete, stageEdit, stageRename, unstage } from "../staging/staged-changes";
import { SecretRow, stackedRowHeight } from "./secret-row";
import { useStaging } from "./staging-context";
import { useClientWidth } from "@/hooks/use-client-width";
import type { SecretGuards } from "./use-secret-guards";
import type { LeaveEdit } from "./value-cell";

/** Every row of the wide table has this height (stacked rows follow from what they show), so the virtualiser never measures one. */
export const ROW_HEIGHT = 48;

/** Below this width (inside the table's frame) the four columns no longer fit: each row stacks its cells. */
export const STACK_BELOW = 640;

interface SecretsTableProps {
  rows: readonly SecretListRow[];
  folder: SecretFolder;
  guards: SecretGuards;
  onOpen: (secretKey: string) => void;
  /** Why a save would refuse a row's staged change, by its key. */
  problems: ReadonlyMap<string, string>;
  selected: ReadonlySet<string>;
  /** Selects or unselects the row at `index` of `rows`; with `range`, every row from the last one clicked. */
  onSelect: (index: number, range: boolean) => void;
  /** Selects every selectable row shown (all that match the search), or none. */
  onSelectAll: (all: boolean) => void;
}

/** Whether a row can be selected for bulk actions: the folder's own secrets, saved already. */
export const isSelectable = (row: SecretListRow) => row.importedFrom === undefined && row.secret.id !== "";

/**
 * The secrets as a table whose body holds only the rows in view (and a few either side):
 * spacer rows stand for the others, so the table stays a real table to assistive technology
 * (with `aria-rowcount` and each row's `aria-rowindex`) whatever its length. Which values are
 * revealed and which row is being edited live here, by key, so they survive scrolling.
 */
export const SecretsTable = memo(function SecretsTable(props: SecretsTableProps) {
  const { rows, folder, guards, onOpen, problems, selected, onSelect, onSelectAll } = props;
  const { staged, change } = useStaging();
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useClientWidth(scrollRef);
  const stacked = width !== undefined && width < STACK_BELOW;
  // The virtualiser recomputes its items' sizes when `getItemKey` changes: a new one with every
  // new list of rows makes it take their heights in the render that shows them (a `measure()`
  // after rendering would render the table a second time on every keystroke).
  // A staged change adds a line to a stacked row: a row with one is another item, with its own size.
  const getItemKey = useCallback(
    (index: number) => {
      const { secretKey } = rows[index] as SecretListRow;
      return pendingChange(staged, folder, secretKey) ? `${secretKey}\u0000staged` : secretKey;
    },
    [rows, staged, folder],
  );
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => {
      const row = rows[index] as SecretListRow;
      return stacked ? stackedRowHeight(row, pendingChange(staged, folder, row.secretKey)) : ROW_HEIGHT;
    },
    getItemKey,
    overscan: 5,
    // Until the container is measured (and in tests without layout), assume a typical one.
    initialRect: { width: 1000, height: 640 },
  });
  // Another layout brings other sizes for the same rows.
  useLayoutEffect(() => virtualizer.measure(), [virtualizer, stacked]);
  // Revealed values mask again after 60 s, or when the tab is hidden or the window loses focus.
  const { keys: revealed, toggle: toggleReveal } = useRevealed<string>();
  const [editing, setEditing] = useState<string>();
  // The edit in progress asks, when its value was changed, before another row's edit replaces it.
  const leaveEdit = useRef<LeaveEdit>(undefined);
  const edit = useCallback(
    (secretKey: string | undefined) => {
      const leave = secretKey === undefined || secretKey === editing ? undefined : leaveEdit.current;
      if (leave) leave(() => setEditing(secretKey));
      else setEditing(secretKey);
    },
    [editing],
  );
  const stageDeletion = useCallback(
    (secretKey: string) => change((current) => stageDelete(current, folder, secretKey)),
    [change, folder],
  );
  const undo = useCallback(
    (secretKey: string) => change((current) => unstage(current, folder, secretKey)),
    [change, folder],
  );
  const stageRow = useCallback(
    (secretKey: string, { secretValue, newSecretKey }: { secretValue?: string; newSecretKey?: string }) =>
      change((current) => {
        let next = secretValue === undefined ? current : stageEdit(current, folder, secretKey, { secretValue });
        // A new secret's key is its key in the model: it follows a rename.
        if (newSecretKey !== undefined) next = stageRename(next, folder, secretKey, newSecretKey);
        return next;
      }),
    [change, folder],
  );
  const selectable = rows.filter(isSelectable);
  const allSelected = selectable.length > 0 && selectable.every((row) => selected.has(row.secretKey));
  const someSelected = !allSelected && selectable.some((row) => selected.has(row.secretKey));

  // Rows say where they are by `aria-rowindex` (their index + 2).
  const selectAt = useCallback((rowIndex: number, range: boolean) => onSelect(rowIndex - 2, range), [onSelect]);
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  return (
    <>
      <div
        ref={scrollRef}
        className="relative max-h-[max(24rem,calc(100dvh-22rem))] overflow-auto rounded-xl border border-border bg-card shadow-xs"
      >
        <table
          aria-label="Secrets"
          aria-rowcount={rows.length + 1}
          className={cn("w-full text-sm", stacked ? "block" : "table-fixed border-separate border-spacing-0")}
        >
          {stacked ? null : (
            <colgroup>
              <col className="w-10" />
              <col className="w-[30%]" />
              <col />
              <col className="w-[24%]" />
              <col className="w-44" />
            </colgroup>
          )}
          {/* Stacked rows say what each part is by its place; the headers stay for assistive technology. */}
          <thead className={stacked ? "sr-only" : "sticky top-0 z-10 bg-surface"}>
            <tr aria-rowindex={1} className="h-9 text-left text-xs font-medium text-muted-foreground">
              <th scope="col" className="border-b border-border pl-4 font-medium">
                <input
                  type="checkbox"
                  aria-label={`Select all ${selectable.length} shown`}
                  title="Select all that match the search"
                  checked={allSelected}
                  ref={(node) => {
                    if (node) node.indeterminate = someSelected;
                  }}
                  disabled={selectable.length === 0}
                  onChange={() => onSelectAll(!allSelected)}
                  className="size-4 cursor-pointer accent-accent align-middle"
                />
              </th>
              <th scope="col" className="border-b border-border px-4 font-medium">
                Key
              </th>
              <th scope="col" className="border-b border-border px-3 font-medium">
                Value
              </th>
              <th scope="col" className="border-b border-border px-3 font-medium">
                Tags
              </th>
              <th scope="col" className="border-b border-border px-3 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className={stacked ? "block" : undefined}>
            {before > 0 ? (
              <tr aria-hidden className={stacked ? "block" : undefined} style={{ height: before }} />
            ) : null}
            {items.map((item) => {
              const row = rows[item.index] as SecretListRow;
              const found = row.importedFrom ? undefined : pendingChange(staged, folder, row.secretKey);
              // A staged creation belongs to its own row, not to a secret of that key on the server.
              const pending = found?.change.kind === "create" && isSelectable(row) ? undefined : found;
              return (
                // Rows are keyed by position: when a filter changes which secrets are in view, the
                // rows on screen are updated in place rather than unmounted and mounted again (what
                // a row holds for one secret, an edit or a revealed value, is keyed by that secret
                // inside the row).
                <SecretRow
                  key={item.index}
                  rowIndex={item.index + 2}
                  row={row}
                  folder={folder}
                  guards={guards}
                  revealed={revealed.has(row.secretKey)}
                  editing={editing === row.secretKey}
                  stacked={stacked}
                  onToggleReveal={toggleReveal}
                  leaveEdit={leaveEdit}
                  onEdit={edit}
                  onOpen={onOpen}
                  onDelete={stageDeletion}
                  pending={pending}
                  problem={problems.get(row.secretKey)}
                  onStage={stageRow}
                  onUndo={undo}
                  selectable={isSelectable(row)}
                  selected={selected.has(row.secretKey)}
                  onSelect={selectAt}
                />
              );
            })}
            {after > 0 ? <tr aria-hidden className={stacked ? "block" : undefined} style={{ height: after }} /> : null}
          </tbody>
        </table>
      </div>
    </>
  );
});
