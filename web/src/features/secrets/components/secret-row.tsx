import {
  ArrowUpRight,
  Copy,
  Eye,
  EyeOff,
  FolderInput,
  Layers,
  PanelRightOpen,
  Pencil,
  Trash2,
  Undo2,
} from "lucide-react";
import { lazy, memo, type MouseEvent, type RefObject, Suspense, useRef } from "react";
import { Link } from "react-router";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { Badge } from "@/components/ui/badge";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/lib/cn";
import { errorSummary } from "@/lib/describe-error";
import { importSourceLabel } from "@/lib/import-precedence";
import { toast } from "@/lib/toast";
import { type SecretFolder, secretsApi } from "../api";
import { copyValueToClipboard } from "../copy-value";
import { folderHref } from "../secret-location";
import type { SecretListRow, SecretSource } from "../secret-rows";
import type { PendingChange } from "../staging/staged-changes";
import { PendingNote } from "./pending-note";
import { TagDot } from "./tag-dot";
import type { SecretGuards } from "./use-secret-guards";
import { HiddenValue, type LeaveEdit, MaskedValue, RevealedValue, StagedValue } from "./value-cell";

interface SecretRowProps {
  rowIndex: number;
  row: SecretListRow;
  folder: SecretFolder;
  guards: SecretGuards;
  revealed: boolean;
  editing: boolean;
  /** Narrow table: the row's cells stack (key, then value and actions, then tags) in `stackedRowHeight(row)`. */
  stacked: boolean;
  onToggleReveal: (secretKey: string) => void;
  /** Set by the row being edited: how to leave its edit (see `ValueEditor`). */
  leaveEdit: RefObject<LeaveEdit>;
  onEdit: (secretKey: string | undefined) => void;
  onOpen: (secretKey: string) => void;
  /** Stages the secret's deletion. */
  onDelete: (secretKey: string) => void;
  /** What is staged for this secret (by its key on the server, or a staged new secret's key). */
  pending: PendingChange | undefined;
  /** Why a save would refuse the staged change, known before sending it. */
  problem: string | undefined;
  /** Stages an inline edit's new value and/or key. */
  onStage: (secretKey: string, change: { secretValue?: string; newSecretKey?: string }) => void;
  onUndo: (secretKey: string) => void;
  /** Whether the row can be selected (the folder's own secrets, not imported or staged new ones). */
  selectable: boolean;
  selected: boolean;
  /** Selects or unselects the row; with Shift, the range from the last one clicked. */
  onSelect: (rowIndex: number, range: boolean) => void;
}

const iconButton = "size-7 text-muted-foreground hover:text-foreground";

// The inline editor (with its reference suggestions) loads when a row is first edited.
const RowEditor = lazy(async () => ({ default: (await import("./row-editor")).RowEditor }));

/*
 * The rows' icons, as elements made once: a row that shows another secret after a keystroke
 * renders the same icon elements again, and React skips them instead of building each SVG anew.
 */
const icons = {
  reveal: <Eye aria-hidden />,
  hide: <EyeOff aria-hidden />,
  copy: <Copy aria-hidden />,
  edit: <Pencil aria-hidden />,
  open: <PanelRightOpen aria-hidden />,
  delete: <Trash2 aria-hidden />,
  undo: <Undo2 aria-hidden />,
  openHome: <ArrowUpRight aria-hidden />,
  imported: <FolderInput aria-hidden />,
  overrides: <Layers aria-hidden />,
};
const MAX_TAGS = 2;

/*
 * A stacked row's lines have fixed heights, so its height follows from what it shows and the
 * virtualiser never measures one: padding, the key (and a line for its comment or where it
 * comes from), the value with the actions, and the tags when it has any.
 */
const STACKED = { padding: 10, key: 20, note: 16, gap: 6, value: 32, tags: 20, border: 1 } as const;

const hasNote = (row: SecretListRow, pending?: PendingChange) =>
  pending !== undefined ||
  Boolean(row.secret.secretComment) ||
  row.importedFrom !== undefined ||
  row.overrides.length > 0;

/** The height of a row in the stacked (narrow) layout, in CSS pixels. */
export function stackedRowHeight(row: SecretListRow, pending?: PendingChange): number {
  const { padding, key, note, gap, value, tags, border } = STACKED;
  return (
    2 * padding + key + (hasNote(row, pending) ? note : 0) + gap + value + (row.tags?.length ? gap + tags : 0) + border
  );
}

const sourceList = (sources: readonly SecretSource[]) =>
  sources.map((source) => importSourceLabel(source.environment, source.secretPath)).join(", ");

/** A value the server withheld on read: the caller may see the secret but not its value. */
class HiddenValueError extends Error {
  constructor() {
    super("Your permissions let you see this secret but not read its value.");
  }
}

/** Clicks on the row open the secret, except clicks on its own controls. */
function isControl(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest("button, a, input, textarea, select, label") !== null;
}

export const SecretRow = memo(function SecretRow(props: SecretRowProps) {
  const { rowIndex, row, folder, guards, revealed, editing, stacked, leaveEdit, pending, problem } = props;
  const { onToggleReveal, onEdit, onOpen, onDelete, onStage, onUndo, selectable, selected, onSelect } = props;
  const { importedFrom } = row;
  const key = row.secretKey;
  const editButton = useRef<HTMLButtonElement>(null);
  const change = pending?.change;
  const isNew = change?.kind === "create";
  const deleting = change?.kind === "delete";
  const stagedValue = change && change.kind !== "delete" ? change.secretValue : undefined;
  const readDenied =
    guards.readValue && stagedValue === undefined ? `The value is hidden. ${guards.readValue}` : undefined;
  // An imported secret is read where it lives, and changed only there.
  const home: SecretFolder = importedFrom ? { ...folder, ...importedFrom } : folder;
  const homeLabel = importedFrom ? importSourceLabel(importedFrom.environment, importedFrom.secretPath) : undefined;
  const shownKey = change?.kind === "update" && change.newSecretKey ? change.newSecretKey : key;

  async function copy() {
    try {
      await copyValueToClipboard(async () => {
        if (stagedValue !== undefined) return stagedValue;
        const read = await secretsApi.reveal(home, key);
        if (read.secretValueHidden) throw new HiddenValueError();
        return read.secretValue;
      });
      toast.success("Value copied", shownKey);
    } catch (error) {
      toast.error("Could not copy the value", errorSummary(error, "The value could not be read"));
    }
  }

  function stopEditing() {
    onEdit(undefined);
    // Back to the control that started the edit, for keyboard users.
    requestAnimationFrame(() => editButton.current?.focus());
  }

  const tags = row.tags ?? [];
  const cell = stacked ? "min-w-0" : "border-b border-border px-3";
  const keyCell = stacked ? "col-span-2 col-start-2 min-w-0" : "border-b border-border px-4";
  const valueCell = stacked ? "col-span-2 col-start-1 row-start-2 min-w-0" : cell;
  return (
    <tr
      aria-rowindex={rowIndex}
      aria-selected={selectable ? selected : undefined}
      className={cn(
        "group transition-colors hover:bg-hover/50",
        importedFrom || isNew ? "bg-surface/60" : "cursor-pointer",
        change && "bg-accent-subtle/40",
        deleting && "bg-destructive-subtle/40",
        selected && "bg-accent-subtle/70",
        stacked
          ? "grid grid-cols-[auto_minmax(0,1fr)_auto] content-start items-center gap-x-2 gap-y-1.5 border-b border-border px-4 py-2.5"
          : "h-12",
      )}
      style={stacked ? { height: stackedRowHeight(row, pending) } : undefined}
      onClick={(event: MouseEvent) => {
        if (!importedFrom && !isNew && !editing && !isControl(event.target)) onOpen(key);
      }}
    >
      <td className={stacked ? "row-start-1 col-start-1" : "border-b border-border pl-4"}>
        {selectable ? (
          <input
            type="checkbox"
            aria-label={`Select ${key}`}
            checked={selected}
            readOnly
            onClick={(event) => onSelect(rowIndex, event.shiftKey)}
            className="size-4 cursor-pointer accent-accent align-middle"
          />
        ) : null}
      </td>
      {editing && !importedFrom && !deleting ? (
        <Suspense
          fallback={
            <>
              <td className={keyCell} />
              <td className={valueCell} />
            </>
          }
        >
          <RowEditor
            key={key}
            folder={folder}
            secretKey={key}
            pending={pending}
            canRead={!guards.readValue}
            leaveRef={leaveEdit}
            keyCell={keyCell}
            valueCell={valueCell}
            onStage={(staged) => onStage(key, staged)}
            onDone={stopEditing}
          />
        </Suspense>
      ) : (
        <>
          <td className={keyCell}>
            <div className="min-w-0">
              <div
                className={cn(
                  "h-5 truncate font-mono text-[13px] leading-5 font-medium",
                  deleting && "text-muted-foreground line-through",
                )}
                title={shownKey}
              >
                {shownKey}
              </div>
              {pending ? (
                <PendingNote folder={folder} secretKey={key} pending={pending} problem={problem} />
              ) : hasNote(row) ? (
                <RowNote row={row} homeLabel={homeLabel} />
              ) : null}
            </div>
          </td>
          <td className={valueCell}>
            {deleting ? (
              <span className="block truncate font-mono text-[13px] tracking-widest text-muted-foreground line-through select-none">
                <span aria-hidden>••••••••••••</span>
                <span className="sr-only">Deleted on save</span>
              </span>
            ) : revealed && stagedValue !== undefined ? (
              <StagedValue value={stagedValue} />
            ) : readDenied && !guards.checking ? (
              <HiddenValue />
            ) : revealed ? (
              <RevealedValue key={`${homeLabel}:${key}`} folder={home} secretKey={key} />
            ) : (
              <MaskedValue changed={stagedValue !== undefined} />
            )}
          </td>
        </>
      )}
      <td className={stacked ? cn("col-span-3 min-w-0", tags.length === 0 && "hidden") : cell}>
        {tags.length > 0 ? (
          <span className="flex min-w-0 items-center gap-1 overflow-hidden">
            {tags.slice(0, MAX_TAGS).map((tag) => (
              <Badge key={tag.id} tone="outline" className="max-w-40 min-w-0">
                <TagDot color={tag.color} />
                <span className="truncate">{tag.slug}</span>
              </Badge>
            ))}
            {tags.length > MAX_TAGS ? (
              <Badge tone="outline" title={tags.map((tag) => tag.slug).join(", ")}>
                +{tags.length - MAX_TAGS}
              </Badge>
            ) : null}
          </span>
        ) : null}
      </td>
      <td className={stacked ? "row-start-2 col-start-3" : cell}>
        <span className="flex items-center justify-end gap-0.5">
          <PermittedButton
            variant="ghost"
            size="icon-sm"
            className={iconButton}
            aria-label={`${revealed ? "Hide" : "Reveal"} value of ${key}`}
            aria-pressed={readDenied ? undefined : revealed}
            title={readDenied ? undefined : revealed ? "Hide value" : "Reveal value"}
            deniedReason={readDenied}
            disabled={deleting}
            onClick={() => onToggleReveal(key)}
          >
            {revealed ? icons.hide : icons.reveal}
          </PermittedButton>
          <PermittedButton
            variant="ghost"
            size="icon-sm"
            className={iconButton}
            aria-label={`Copy value of ${key}`}
            title={readDenied ? undefined : "Copy value"}
            deniedReason={readDenied}
            disabled={deleting}
            onClick={() => void copy()}
          >
            {icons.copy}
          </PermittedButton>
          {importedFrom ? (
            <>
              {/* Imported secrets are read-only here: the places of Edit and Delete stay empty, so the columns line up. */}
              <span aria-hidden className="size-7" />
              <Link
                to={folderHref(importedFrom, key)}
                className={cn(buttonVariants({ variant: "ghost", size: "icon-sm" }), iconButton)}
                aria-label={`Open ${key} in ${homeLabel}`}
                title={`Open in ${homeLabel}, where it can be changed`}
              >
                {icons.openHome}
              </Link>
              <span aria-hidden className="size-7" />
            </>
          ) : (
            <>
              <PermittedButton
                ref={editButton}
                variant="ghost"
                size="icon-sm"
                className={iconButton}
                aria-label={`Edit value of ${key}`}
                title={guards.edit ? undefined : "Edit key and value"}
                deniedReason={isNew ? guards.create : guards.edit}
                disabled={deleting}
                onClick={() => onEdit(key)}
              >
                {icons.edit}
              </PermittedButton>
              <PermittedButton
                variant="ghost"
                size="icon-sm"
                className={iconButton}
                aria-label={`Open ${key}`}
                title={isNew ? "Save it first to open its details" : "Open details"}
                disabled={isNew}
                onClick={() => onOpen(key)}
              >
                {icons.open}
              </PermittedButton>
              {pending ? (
                <PermittedButton
                  variant="ghost"
                  size="icon-sm"
                  className={iconButton}
                  aria-label={`Undo changes to ${key}`}
                  title={isNew ? "Remove this new secret" : "Undo the pending change"}
                  onClick={() => onUndo(key)}
                >
                  {icons.undo}
                </PermittedButton>
              ) : (
                <PermittedButton
                  variant="ghost"
                  size="icon-sm"
                  className={`${iconButton} hover:text-destructive-subtle-foreground`}
                  aria-label={`Delete ${key}`}
                  title={guards.delete ? undefined : "Delete (on save)"}
                  deniedReason={guards.delete}
                  onClick={() => onDelete(key)}
                >
                  {icons.delete}
                </PermittedButton>
              )}
            </>
          )}
        </span>
      </td>
    </tr>
  );
});

/**
 * The line under a key: where an imported secret comes from (a link to that folder), or which
 * imports the folder's own secret overrides; then the secret's comment.
 */
function RowNote({ row, homeLabel }: { row: SecretListRow; homeLabel: string | undefined }) {
  const { importedFrom, overrides } = row;
  const comment = row.secret.secretComment;
  const overridden = overrides.length > 0 ? sourceList(overrides) : undefined;
  const first = overrides[0];
  return (
    <div className="flex h-4 min-w-0 items-center gap-2 text-xs leading-4">
      {importedFrom ? (
        <Link
          to={folderHref(importedFrom)}
          className="inline-flex min-w-0 items-center gap-1 rounded-sm font-medium text-accent-text outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-3.5 [&_svg]:shrink-0"
          title={
            overridden
              ? `Imported from ${homeLabel}, which overrides ${overridden}. Read-only here: open the folder to change it.`
              : `Imported from ${homeLabel}. Read-only here: open the folder to change it.`
          }
        >
          {icons.imported}
          <span className="truncate">
            Imported from <span className="font-mono">{homeLabel}</span>
          </span>
        </Link>
      ) : overridden && first ? (
        <span
          className="inline-flex min-w-0 items-center gap-1 text-warning-subtle-foreground [&_svg]:size-3.5 [&_svg]:shrink-0"
          title={`This folder's own value wins over the one imported from ${overridden}.`}
        >
          {icons.overrides}
          <span className="truncate">
            Overrides <span className="font-mono">{importSourceLabel(first.environment, first.secretPath)}</span>
            {overrides.length > 1 ? ` +${overrides.length - 1}` : null}
          </span>
        </span>
      ) : null}
      {comment ? (
        <span className="min-w-0 flex-1 truncate text-muted-foreground" title={comment}>
          {comment}
        </span>
      ) : null}
    </div>
  );
}
