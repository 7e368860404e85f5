import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useCallback, useLayoutEffect, useRef, useState } from "react";
import { useRevealed } from "@/hooks/use-remask";
import { cn } from "@/lib/cn";
import type { SecretFolder } from "../api";
import type { SecretListRow } from "../secret-rows";
import { DeleteSecretDialog } from "./delete-secret-dialog";
import { SecretRow, stackedRowHeight } from "./secret-row";
import { useClientWidth } from "./use-client-width";
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
}

/**
 * The secrets as a table whose body holds only the rows in view (and a few either side):
 * spacer rows stand for the others, so the table stays a real table to assistive technology
 * (with `aria-rowcount` and each row's `aria-rowindex`) whatever its length. Which values are
 * revealed and which row is being edited live here, by key, so they survive scrolling.
 */
export const SecretsTable = memo(function SecretsTable({ rows, folder, guards, onOpen }: SecretsTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useClientWidth(scrollRef);
  const stacked = width !== undefined && width < STACK_BELOW;
  // The virtualiser recomputes its items' sizes when `getItemKey` changes: a new one with every
  // new list of rows makes it take their heights in the render that shows them (a `measure()`
  // after rendering would render the table a second time on every keystroke).
  const getItemKey = useCallback((index: number) => (rows[index] as SecretListRow).secretKey, [rows]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => (stacked ? stackedRowHeight(rows[index] as SecretListRow) : ROW_HEIGHT),
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
  // The secret stays set while its confirmation closes, so the closing dialog keeps its text.
  const [deleting, setDeleting] = useState<string>();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const closeDelete = useCallback(() => setConfirmOpen(false), []);

  const askDelete = useCallback((secretKey: string) => {
    setDeleting(secretKey);
    setConfirmOpen(true);
  }, []);

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
              <col className="w-[30%]" />
              <col />
              <col className="w-[24%]" />
              <col className="w-44" />
            </colgroup>
          )}
          {/* Stacked rows say what each part is by its place; the headers stay for assistive technology. */}
          <thead className={stacked ? "sr-only" : "sticky top-0 z-10 bg-surface"}>
            <tr aria-rowindex={1} className="h-9 text-left text-xs font-medium text-muted-foreground">
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
                  onDelete={askDelete}
                />
              );
            })}
            {after > 0 ? <tr aria-hidden className={stacked ? "block" : undefined} style={{ height: after }} /> : null}
          </tbody>
        </table>
      </div>
      <DeleteSecretDialog folder={folder} secretKey={deleting} open={confirmOpen} onClose={closeDelete} />
    </>
  );
});
