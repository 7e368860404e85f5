import type { Environment } from "@keyhold/contract";
import { useVirtualizer } from "@tanstack/react-virtual";
import { CircleAlert, Eye, EyeOff, Folder, FolderCheck, Minus, RotateCw } from "lucide-react";
import { memo, type ReactNode, type RefObject, useCallback, useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useRevealed } from "@/hooks/use-remask";
import { cn } from "@/lib/cn";
import { errorSummary } from "@/lib/describe-error";
import type { SecretFolder } from "../../api";
import { useClientWidth } from "@/hooks/use-client-width";
import type { SecretGuards } from "../../components/use-secret-guards";
import type { LeaveEdit } from "../../components/value-cell";
import { childPath } from "../../secret-location";
import type { OverviewFolder, OverviewRow } from "../overview-rows";
import { OverviewCell } from "./overview-cell";

/** Every row has this height, so the virtualiser never measures one. */
export const ROW_HEIGHT = 56;
/** Below this width (inside the table's frame) the columns narrow and the table scrolls sideways, the keys staying put. */
const NARROW_BELOW = 720;

/** One environment's column: its folder as read, and how many keys it holds. */
export interface ColumnState {
  environment: Environment;
  state: "loaded" | "no-folder" | "pending" | "error";
  keyCount: number;
  error: unknown;
  retry: () => void;
}

type Item = { kind: "folder"; folder: OverviewFolder } | { kind: "key"; row: OverviewRow };

interface OverviewTableProps {
  secretPath: string;
  /** Each environment's folder, in the columns' order. */
  folders: readonly SecretFolder[];
  columns: readonly ColumnState[];
  rows: readonly OverviewRow[];
  subfolders: readonly OverviewFolder[];
  folderHref: (secretPath: string) => string;
  guards: SecretGuards;
  onCopy: (secretKey: string, from: string) => void;
}

const sticky = "sticky left-0 border-r border-b border-border";

/**
 * The keys as rows and the environments as columns, with only the rows in view (and a few
 * either side) in the table; spacer rows stand for the others, so it stays a real table to
 * assistive technology (`aria-rowcount`, each row's `aria-rowindex`). Sub-folders come first.
 * Which rows are revealed and which cell is being edited live here, by key, so they survive
 * scrolling; revealed values mask again after 60 s, or when the tab or window is left.
 */
export const OverviewTable = memo(function OverviewTable(props: OverviewTableProps) {
  const { secretPath, folders, columns, rows, subfolders, folderHref, guards, onCopy } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useClientWidth(scrollRef);
  const narrow = width !== undefined && width < NARROW_BELOW;
  const keyWidth = narrow ? 176 : 264;
  const envWidth = narrow ? 176 : 212;

  const items = useMemo<Item[]>(
    () => [
      ...subfolders.map((folder): Item => ({ kind: "folder", folder })),
      ...rows.map((row): Item => ({ kind: "key", row })),
    ],
    [subfolders, rows],
  );
  const getItemKey = useCallback(
    (index: number) => {
      const item = items[index] as Item;
      return item.kind === "folder" ? `/${item.folder.name}` : item.row.secretKey;
    },
    [items],
  );
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey,
    overscan: 6,
    initialRect: { width: 1000, height: 640 },
  });

  const revealed = useRevealed<string>();
  const [editing, setEditing] = useState<{ secretKey: string; environment: string }>();
  // The edit in progress asks, when its value was changed, before another cell's edit replaces it.
  const leaveEdit = useRef<LeaveEdit>(undefined);
  const edit = useCallback(
    (secretKey: string, environment: string | undefined) => {
      const next = environment === undefined ? undefined : { secretKey, environment };
      const same = next && editing && next.secretKey === editing.secretKey && next.environment === editing.environment;
      const leave = next === undefined || same ? undefined : leaveEdit.current;
      if (leave) leave(() => setEditing(next));
      else setEditing(next);
    },
    [editing],
  );

  const virtualItems = virtualizer.getVirtualItems();
  const before = virtualItems[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (virtualItems.at(-1)?.end ?? 0);

  return (
    <div
      ref={scrollRef}
      className="relative max-h-[max(24rem,calc(100dvh-21rem))] overflow-auto rounded-xl border border-border bg-card shadow-xs"
    >
      <table
        aria-label="Secrets across environments"
        aria-rowcount={items.length + 1}
        aria-colcount={columns.length + 1}
        className="table-fixed border-separate border-spacing-0 text-sm"
        style={{ width: `max(100%, ${keyWidth + envWidth * columns.length}px)` }}
      >
        <colgroup>
          <col style={{ width: keyWidth }} />
          {columns.map((column) => (
            <col key={column.environment.id} />
          ))}
        </colgroup>
        <thead className="sticky top-0 z-20">
          <tr aria-rowindex={1} className="h-11 text-left text-xs font-medium text-muted-foreground">
            <th scope="col" className={cn(sticky, "z-30 bg-surface font-medium", narrow ? "px-3" : "px-4")}>
              Key
            </th>
            {columns.map((column) => (
              <th
                key={column.environment.id}
                scope="col"
                className="border-b border-border bg-surface px-3 font-medium"
              >
                <ColumnHeader column={column} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {before > 0 ? <tr aria-hidden style={{ height: before }} /> : null}
          {virtualItems.map((virtual) => {
            const item = items[virtual.index] as Item;
            const rowIndex = virtual.index + 2;
            if (item.kind === "folder") {
              return (
                <FolderRow
                  key={virtual.key}
                  rowIndex={rowIndex}
                  folder={item.folder}
                  columns={columns}
                  href={folderHref(childPath(secretPath, item.folder.name))}
                />
              );
            }
            const { row } = item;
            return (
              <KeyRow
                key={virtual.key}
                rowIndex={rowIndex}
                row={row}
                columns={columns}
                folders={folders}
                narrow={narrow}
                revealed={revealed.keys.has(row.secretKey)}
                editing={editing?.secretKey === row.secretKey ? editing.environment : undefined}
                guards={guards}
                leaveEdit={leaveEdit}
                onToggleReveal={revealed.toggle}
                onEdit={edit}
                onCopy={onCopy}
              />
            );
          })}
          {after > 0 ? <tr aria-hidden style={{ height: after }} /> : null}
        </tbody>
      </table>
    </div>
  );
});

const NO_PEERS: readonly string[] = [];

interface KeyRowProps {
  rowIndex: number;
  row: OverviewRow;
  columns: readonly ColumnState[];
  folders: readonly SecretFolder[];
  narrow: boolean;
  revealed: boolean;
  /** The slug of the environment whose cell is being edited in this row. */
  editing: string | undefined;
  guards: SecretGuards;
  leaveEdit: RefObject<LeaveEdit>;
  onToggleReveal: (secretKey: string) => void;
  onEdit: (secretKey: string, environment: string | undefined) => void;
  onCopy: (secretKey: string, from: string) => void;
}

/** One key across the environments; rendered again only when something of its own changes, not on every scroll. */
const KeyRow = memo(function KeyRow(props: KeyRowProps) {
  const { rowIndex, row, columns, folders, narrow, revealed, editing, guards, leaveEdit } = props;
  const { onToggleReveal, onEdit, onCopy } = props;
  return (
    <tr aria-rowindex={rowIndex} className="h-14">
      <th scope="row" className={cn(sticky, "z-10 bg-card text-left font-normal", narrow ? "pr-1 pl-3" : "px-4")}>
        <KeyCell compact={narrow} row={row} revealed={revealed} guards={guards} onToggleReveal={onToggleReveal} />
      </th>
      {row.cells.map((cell, env) => {
        const column = columns[env] as ColumnState;
        const peers =
          cell.kind === "present" && cell.group !== undefined
            ? row.cells.flatMap((other, i) =>
                i !== env && other.kind === "present" && other.group === cell.group
                  ? [(columns[i] as ColumnState).environment.name]
                  : [],
              )
            : NO_PEERS;
        return (
          <td key={column.environment.id} className="border-b border-border px-3">
            <OverviewCell
              secretKey={row.secretKey}
              cell={cell}
              environment={column.environment}
              folder={folders[env] as SecretFolder}
              pending={column.state === "pending"}
              peers={peers}
              revealed={revealed}
              editing={editing === column.environment.slug}
              guards={guards}
              leaveEdit={leaveEdit}
              onEdit={onEdit}
              onCopy={onCopy}
            />
          </td>
        );
      })}
    </tr>
  );
});

function ColumnHeader({ column }: { column: ColumnState }) {
  const { environment, state } = column;
  let note: ReactNode;
  if (state === "pending") {
    note = (
      <span className="inline-flex items-center gap-1">
        <Spinner className="size-3" /> Loading…
      </span>
    );
  } else if (state === "error") {
    note = (
      <span className="inline-flex min-w-0 items-center gap-1 text-destructive-subtle-foreground">
        <span className="truncate" title={errorSummary(column.error, "Could not be read")}>
          Not read
        </span>
        <Button
          variant="ghost"
          size="icon-sm"
          className="size-6"
          aria-label={`Read ${environment.name} again`}
          onClick={column.retry}
        >
          <RotateCw aria-hidden className="size-3.5" />
        </Button>
      </span>
    );
  } else if (state === "no-folder") {
    note = "No such folder";
  } else {
    note = `${column.keyCount} ${column.keyCount === 1 ? "key" : "keys"}`;
  }
  return (
    <span className="flex min-w-0 flex-col">
      <span className="truncate text-[13px] font-semibold text-foreground">{environment.name}</span>
      <span className="flex min-w-0 items-center gap-1.5 truncate font-normal">
        <span className="font-mono">{environment.slug}</span>
        <span aria-hidden>·</span>
        {note}
      </span>
    </span>
  );
}

/** What is wrong with a row, in words: where the key is missing, and whether the values differ. */
function RowStatus({ row, compact }: { row: OverviewRow; compact: boolean }) {
  const parts: ReactNode[] = [];
  if (row.missingIn.length > 0) {
    const where = `Missing in ${row.missingIn.join(", ")}`;
    parts.push(
      <span
        key="missing"
        className="inline-flex min-w-0 items-center gap-1 text-warning-subtle-foreground"
        title={where}
      >
        <CircleAlert aria-hidden className="size-3 shrink-0" />
        {/* Narrow, the cells say where; the line says that. */}
        <span className="truncate">{compact ? "Missing" : where}</span>
        {compact ? <span className="sr-only">{where.slice("Missing".length)}</span> : null}
      </span>,
    );
  }
  if (row.comparison === "differ") {
    parts.push(
      <span key="differ" className="shrink-0 font-medium text-accent-text">
        {compact ? "Differs" : "Values differ"}
      </span>,
    );
  } else if (row.comparison === "equal") {
    parts.push(
      <span key="equal" className="shrink-0 text-muted-foreground">
        {compact ? "Same" : "Same value"}
      </span>,
    );
  } else if (row.comparison === "not-compared") {
    parts.push(
      <span key="not-compared" className="shrink-0 text-muted-foreground">
        Not compared
      </span>,
    );
  }
  if (parts.length === 0) return null;
  return <span className="flex h-4 min-w-0 items-center gap-2 text-xs leading-4">{parts}</span>;
}

interface KeyCellProps {
  row: OverviewRow;
  /** Narrow layout: the status line in fewer words. */
  compact: boolean;
  revealed: boolean;
  guards: SecretGuards;
  onToggleReveal: (secretKey: string) => void;
}

const KeyCell = memo(function KeyCell({ row, compact, revealed, guards, onToggleReveal }: KeyCellProps) {
  const key = row.secretKey;
  const readDenied = guards.readValue ? `Values are hidden. ${guards.readValue}` : undefined;
  return (
    <span className="flex min-w-0 items-center gap-1">
      <span className="min-w-0 flex-1">
        <span className="block h-5 truncate font-mono text-[13px] leading-5 font-medium" title={key}>
          {key}
        </span>
        <RowStatus row={row} compact={compact} />
      </span>
      <PermittedButton
        variant="ghost"
        size="icon-sm"
        className="size-7 text-muted-foreground hover:text-foreground"
        aria-label={`${revealed ? "Hide" : "Reveal"} values of ${key}`}
        aria-pressed={readDenied ? undefined : revealed}
        title={readDenied ? undefined : revealed ? "Hide values" : "Reveal values side by side"}
        deniedReason={readDenied}
        onClick={() => onToggleReveal(key)}
      >
        {revealed ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
      </PermittedButton>
    </span>
  );
});

function FolderRow({
  rowIndex,
  folder,
  columns,
  href,
}: {
  rowIndex: number;
  folder: OverviewFolder;
  columns: readonly ColumnState[];
  href: string;
}) {
  return (
    <tr aria-rowindex={rowIndex} className="h-14 bg-surface/60">
      <th scope="row" className={cn(sticky, "z-10 bg-surface px-3 text-left font-normal sm:px-4")}>
        <Link
          to={href}
          className="inline-flex max-w-full min-w-0 items-center gap-2 rounded-sm font-mono text-[13px] font-medium outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          <Folder aria-hidden className="size-4 shrink-0 text-accent-text" />
          <span className="truncate">{folder.name}</span>
          <span className="sr-only">, open this folder</span>
        </Link>
      </th>
      {folder.presentIn.map((present, env) => {
        const column = columns[env] as ColumnState;
        return (
          <td key={column.environment.id} className="border-b border-border px-3 text-[13px] text-muted-foreground">
            {present === undefined ? (
              <Skeleton className="h-4 w-20" />
            ) : present ? (
              <span className="inline-flex items-center gap-1.5">
                <FolderCheck aria-hidden className="size-3.5" />
                Folder
                <span className="sr-only"> exists in {column.environment.name}</span>
              </span>
            ) : (
              <span className="inline-flex items-center gap-1.5 text-warning-subtle-foreground">
                <Minus aria-hidden className="size-3.5" />
                Not here<span className="sr-only">: no such folder in {column.environment.name}</span>
              </span>
            )}
          </td>
        );
      })}
    </tr>
  );
}
