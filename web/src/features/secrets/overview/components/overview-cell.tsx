import type { Environment } from "@keyhold/contract";
import { CircleAlert, CopyPlus, Pencil, Plus, Undo2 } from "lucide-react";
import { memo, type RefObject } from "react";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/cn";
import type { SecretFolder } from "../../api";
import { useStaging } from "../../components/staging-context";
import type { SecretGuards } from "../../components/use-secret-guards";
import { HiddenValue, type LeaveEdit, MaskedValue, RevealedValue } from "../../components/value-cell";
import { type PendingChange, pendingChange, unstage } from "../../staging/staged-changes";
import { groupLetter, type OverviewCell as Cell } from "../overview-rows";
import { CellEditor } from "./overview-cell-editor";

interface OverviewCellProps {
  secretKey: string;
  cell: Cell;
  environment: Environment;
  folder: SecretFolder;
  /** The column's folder is still being read. */
  pending: boolean;
  /** The names of the other environments holding the same value (when the row's values differ). */
  peers: readonly string[];
  revealed: boolean;
  editing: boolean;
  guards: SecretGuards;
  leaveEdit: RefObject<LeaveEdit>;
  onEdit: (secretKey: string, environment: string | undefined) => void;
  onCopy: (secretKey: string, from: string) => void;
}

const iconButton = "size-7 text-muted-foreground hover:text-foreground";
const icons = {
  edit: <Pencil aria-hidden />,
  copy: <CopyPlus aria-hidden />,
  add: <Plus aria-hidden />,
  undo: <Undo2 aria-hidden />,
  missing: <CircleAlert aria-hidden className="size-3.5 shrink-0" />,
};

/** A value group's colours: A is neutral, the others stand apart from it and from each other. */
const groupTones = [
  "border-border bg-muted text-foreground",
  "border-transparent bg-accent-subtle text-accent-subtle-foreground",
  "border-warning-border bg-warning-subtle text-warning-subtle-foreground",
  "border-transparent bg-success-subtle text-success-subtle-foreground",
];

function GroupMark({ group, peers }: { group: number; peers: readonly string[] }) {
  const letter = groupLetter(group);
  const said = peers.length > 0 ? `same value as ${peers.join(", ")}` : "a value no other environment has";
  return (
    <span
      className={cn(
        "inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded-md border px-1 font-mono text-[11px] font-semibold",
        groupTones[group % groupTones.length],
      )}
      title={`Value ${letter}: ${said}`}
    >
      <span aria-hidden>{letter}</span>
      <span className="sr-only">
        , value {letter}: {said}
      </span>
    </span>
  );
}

const pendingLabels = {
  create: { text: "New", tone: "bg-success-subtle text-success-subtle-foreground" },
  update: { text: "Edited", tone: "bg-accent-subtle text-accent-subtle-foreground" },
  delete: { text: "Deleted", tone: "bg-destructive-subtle text-destructive-subtle-foreground" },
} as const;

/** A staged change of the cell: its kind (and the last save's refusal), with undo. */
function PendingMark({
  pending,
  secretKey,
  environmentName,
  onUndo,
}: {
  pending: PendingChange;
  secretKey: string;
  environmentName: string;
  onUndo: () => void;
}) {
  const label = pendingLabels[pending.change.kind];
  return (
    <>
      <span
        className={cn(
          "shrink-0 rounded-sm px-1 text-xs font-medium",
          pending.error ? "bg-destructive-subtle text-destructive-subtle-foreground" : label.tone,
        )}
        title={pending.error ?? "Not saved yet: saved with the other pending changes"}
      >
        {label.text}
        <span className="sr-only">, not saved yet{pending.error ? `: ${pending.error}` : ""}</span>
      </span>
      <PermittedButton
        variant="ghost"
        size="icon-sm"
        className={iconButton}
        aria-label={`Undo the change of ${secretKey} in ${environmentName}`}
        title="Undo this change"
        onClick={onUndo}
      >
        {icons.undo}
      </PermittedButton>
    </>
  );
}

/** One environment's cell of a key's row: the value masked (or revealed), or the key marked missing there. */
export const OverviewCell = memo(function OverviewCell(props: OverviewCellProps) {
  const { secretKey, cell, environment, folder, pending, peers, revealed, editing, guards, leaveEdit } = props;
  const { onEdit, onCopy } = props;
  const done = () => onEdit(secretKey, undefined);
  const staging = useStaging();
  const staged = pendingChange(staging.staged, folder, secretKey);
  const undo = () => staging.change((current) => unstage(current, folder, secretKey));
  const stagedValue = staged && staged.change.kind !== "delete" ? staged.change.secretValue : undefined;

  if (cell.kind === "unknown") {
    return pending ? (
      <Skeleton className="h-4 w-24" />
    ) : (
      <span className="text-[13px] text-muted-foreground">Not read</span>
    );
  }
  if (editing) {
    return (
      <CellEditor
        folder={folder}
        environmentName={environment.name}
        secretKey={secretKey}
        mode={cell.kind === "missing" ? "create" : "update"}
        canRead={!guards.readValue}
        leaveRef={leaveEdit}
        onDone={done}
      />
    );
  }
  if (cell.kind === "missing" && !staged) {
    return (
      <span className="flex h-8 min-w-0 items-center gap-1.5 rounded-md border border-dashed border-warning-border bg-warning-subtle pr-0.5 pl-2 text-[13px] font-medium text-warning-subtle-foreground">
        {icons.missing}
        <span className="truncate">
          Missing<span className="sr-only"> in {environment.name}</span>
        </span>
        <PermittedButton
          variant="ghost"
          size="icon-sm"
          className="ml-auto size-7 text-warning-subtle-foreground hover:bg-card/60"
          aria-label={`Add ${secretKey} in ${environment.name}`}
          title={guards.create ? undefined : `Add in ${environment.name}`}
          deniedReason={guards.create}
          onClick={() => onEdit(secretKey, environment.slug)}
        >
          {icons.add}
        </PermittedButton>
      </span>
    );
  }
  const readDenied = guards.readValue ? `The value is hidden. ${guards.readValue}` : undefined;
  const copyDenied =
    readDenied ??
    guards.edit ??
    (cell.kind === "missing" ? "It is not saved yet: save it first, then copy it." : undefined);
  return (
    <span className="flex h-8 min-w-0 items-center gap-1.5">
      <span className="sr-only">
        {cell.kind === "missing" ? `Added in ${environment.name}` : `Present in ${environment.name}`}
      </span>
      <span className="min-w-0 flex-1">
        {revealed && stagedValue !== undefined ? (
          <span className="block truncate font-mono text-[13px]" title={stagedValue}>
            {stagedValue === "" ? <span className="text-muted-foreground italic">empty</span> : stagedValue}
          </span>
        ) : revealed ? (
          readDenied ? (
            <HiddenValue />
          ) : (
            <RevealedValue folder={folder} secretKey={secretKey} />
          )
        ) : (
          <MaskedValue />
        )}
      </span>
      {staged ? (
        <PendingMark pending={staged} secretKey={secretKey} environmentName={environment.name} onUndo={undo} />
      ) : cell.kind === "present" && cell.group !== undefined ? (
        <GroupMark group={cell.group} peers={peers} />
      ) : null}
      <span className="flex shrink-0 items-center">
        <PermittedButton
          variant="ghost"
          size="icon-sm"
          className={iconButton}
          aria-label={`Edit ${secretKey} in ${environment.name}`}
          title={guards.edit ? undefined : "Edit value"}
          deniedReason={guards.edit}
          onClick={() => onEdit(secretKey, environment.slug)}
        >
          {icons.edit}
        </PermittedButton>
        {/* A value not saved yet cannot be copied from: it is not on the server. */}
        {cell.kind === "missing" ? null : (
          <PermittedButton
            variant="ghost"
            size="icon-sm"
            className={iconButton}
            aria-label={`Copy ${secretKey} from ${environment.name} to other environments`}
            title={copyDenied ? undefined : "Copy to other environments"}
            deniedReason={copyDenied}
            onClick={() => onCopy(secretKey, environment.slug)}
          >
            {icons.copy}
          </PermittedButton>
        )}
      </span>
    </span>
  );
});
