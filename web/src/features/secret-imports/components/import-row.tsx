import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { ArrowDown, ArrowUp, GripVertical, TriangleAlert } from "lucide-react";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/cn";
import type { ImportingFolder } from "../api";
import type { KeyChange } from "../change-preview";
import { type ImportRow, type ProvidedKey, sourceLabel } from "../provided-keys";
import { DeleteImportButton } from "./delete-import-button";
import { KeyChips } from "./key-chips";
import { StepButton } from "./step-button";

interface ImportRowItemProps {
  folder: ImportingFolder;
  row: ImportRow;
  total: number;
  keys: ProvidedKey[] | undefined;
  /** The keys removing this import would hand to another supplier; undefined when that cannot be told. */
  removalChanges: () => KeyChange[] | undefined;
  keysState: "loading" | "error" | "ready";
  /** The source folder does not exist (the server accepted the import all the same). */
  sourceMissing: boolean;
  labelOf: (id: string) => string;
  reorderDenied: string | undefined;
  deleteDenied: string | undefined;
  isFirst: boolean;
  isLast: boolean;
  onStep: (step: -1 | 1) => void;
}

/** One import: its handle, position, source, the keys it provides, and its actions. */
export function ImportRowItem(props: ImportRowItemProps) {
  const {
    folder,
    row,
    total,
    keys,
    keysState,
    sourceMissing,
    labelOf,
    reorderDenied,
    deleteDenied,
    isFirst,
    isLast,
    onStep,
    removalChanges,
  } = props;
  const label = sourceLabel(row);
  const sortable = useSortable({ id: row.id, disabled: reorderDenied !== undefined });
  const { setNodeRef, setActivatorNodeRef, attributes, listeners, transform, transition, isDragging } = sortable;

  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={cn(
        // On a narrow screen the keys take a line of their own below the source.
        "relative grid grid-cols-[auto_1.5rem_minmax(0,1fr)_auto] items-start gap-3 border-b border-border bg-card px-3 py-3 last:border-0 sm:grid-cols-[auto_1.5rem_minmax(9rem,14rem)_minmax(0,1fr)_auto]",
        isDragging && "z-10 shadow-lg ring-1 ring-ring/40",
      )}
    >
      {reorderDenied ? (
        <PermittedButton
          variant="ghost"
          size="icon-sm"
          aria-label={`Reorder ${label}, position ${row.position} of ${total}`}
          deniedReason={reorderDenied}
        >
          <GripVertical aria-hidden />
        </PermittedButton>
      ) : (
        <button
          type="button"
          ref={setActivatorNodeRef}
          {...attributes}
          {...listeners}
          aria-label={`Reorder ${label}, position ${row.position} of ${total}`}
          className="inline-flex size-8 cursor-grab touch-none items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-hover hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring active:cursor-grabbing [&_svg]:size-4"
        >
          <GripVertical aria-hidden />
        </button>
      )}
      <span className="pt-1.5 text-right font-mono text-[13px] text-muted-foreground tabular-nums">
        <span className="sr-only">Position </span>
        {row.position}
      </span>
      <div className="grid min-w-0 gap-1 pt-1">
        <span className="flex min-w-0 items-center gap-2">
          <span className="truncate text-sm font-medium">{row.importEnv.name}</span>
          <Badge tone="outline" className="font-mono">
            {row.importEnv.slug}
          </Badge>
        </span>
        <code className="truncate font-mono text-[13px] text-muted-foreground">{row.importPath}</code>
      </div>
      <div className="min-w-0 max-sm:col-span-2 max-sm:col-start-3">
        {sourceMissing ? (
          <p className="flex items-start gap-2 self-start rounded-md border border-warning-border bg-warning-subtle px-2.5 py-1.5 text-[13px] text-warning-subtle-foreground">
            <TriangleAlert aria-hidden className="mt-0.5 size-3.5 shrink-0" />
            <span>
              <span className="font-medium">
                Folder <code className="font-mono">{row.importPath}</code> does not exist in {row.importEnv.slug}.
              </span>{" "}
              This import brings no secrets until the folder is created.
            </span>
          </p>
        ) : (
          <KeyChips label={label} keys={keys} state={keysState} labelOf={labelOf} />
        )}
      </div>
      <span className="flex items-center gap-0.5 max-sm:col-start-4 max-sm:row-start-1">
        <StepButton
          aria-label={`Move ${label} up`}
          inertReason={
            reorderDenied ?? (isFirst ? "Already first: the earliest import gives way to every later one." : undefined)
          }
          onClick={() => onStep(-1)}
        >
          <ArrowUp aria-hidden />
        </StepButton>
        <StepButton
          aria-label={`Move ${label} down`}
          inertReason={
            reorderDenied ?? (isLast ? "Already last: this import wins the keys it shares with the others." : undefined)
          }
          onClick={() => onStep(1)}
        >
          <ArrowDown aria-hidden />
        </StepButton>
        <DeleteImportButton folder={folder} row={row} deniedReason={deleteDenied} changes={removalChanges} />
      </span>
    </li>
  );
}
