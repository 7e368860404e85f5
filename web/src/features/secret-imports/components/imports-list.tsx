import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from "@dnd-kit/sortable";
import type { SecretImport } from "@keyhold/contract";
import { useLayoutEffect, useRef, useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useProjectAbility } from "@/hooks/use-project-ability";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import type { ImportingFolder } from "../api";
import type { ImportChange, KeyChange } from "../change-preview";
import { useMoveImport } from "../mutations";
import { byPosition, dropTarget, stepTarget } from "../positions";
import type { ProvidedKey } from "../provided-keys";
import { sourceLabel } from "../provided-keys";
import { ImportRowItem } from "./import-row";
import { KeyChanges } from "./key-changes";

interface ImportsListProps {
  folder: ImportingFolder;
  imports: readonly SecretImport[];
  /** Keys per import id; undefined for an import the server reported nothing about (or while loading). */
  provided: Map<string, ProvidedKey[] | undefined> | undefined;
  providedState: "loading" | "error" | "ready";
  /** The imports whose source folder does not exist. */
  missing: ReadonlySet<string>;
  /** The keys a move or removal would hand to another supplier; undefined while that cannot be told. */
  preview: (change: ImportChange) => KeyChange[] | undefined;
}

/** A move that changes where some keys are read from, waiting for the person to confirm it. */
interface PendingMove {
  id: string;
  position: number;
  changes: KeyChange[];
}

const instructions =
  "To move an import, press space or enter on its handle, move it with the up and down arrow keys, " +
  "then press space or enter again to drop it, or escape to cancel. The Move up and Move down buttons do the same one step at a time.";

/** The folder's imports in order of precedence, reordered by drag, by keyboard on the handle, or with the step buttons. */
export function ImportsList({ folder, imports, provided, providedState, missing, preview }: ImportsListProps) {
  const ability = useProjectAbility(folder.projectId);
  const editDenied = ability.reason("edit", "secret-imports");
  const deleteDenied = ability.reason("delete", "secret-imports");
  const move = useMoveImport(folder);
  const [announcement, setAnnouncement] = useState("");
  const [pending, setPending] = useState<PendingMove>();
  const rows = byPosition(imports);
  const total = rows.length;
  const labelOf = (id: UniqueIdentifier) => {
    const row = rows.find((r) => r.id === id);
    return row ? sourceLabel(row) : String(id);
  };
  const positionOf = (id: UniqueIdentifier | undefined) => rows.find((r) => r.id === id)?.position;

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      `Picked up import ${labelOf(active.id)} at position ${positionOf(active.id)} of ${total}.`,
    // Over itself right after pick-up: nothing new to say, the pick-up stays the last word.
    onDragOver: ({ active, over }) =>
      over && over.id !== active.id
        ? `Import ${labelOf(active.id)} is over position ${positionOf(over.id)} of ${total}.`
        : undefined,
    onDragEnd: ({ active, over }) =>
      over && over.id !== active.id
        ? `Import ${labelOf(active.id)} dropped at position ${positionOf(over.id)} of ${total}.`
        : `Import ${labelOf(active.id)} dropped where it was.`,
    onDragCancel: ({ active }) =>
      `Moving import ${labelOf(active.id)} was cancelled. It stays at position ${positionOf(active.id)}.`,
  };

  // A row that moves is taken out of the document and put back, which drops the focus to the
  // page: the control that had it (a step button, a drag handle) gets it back once the rows are
  // in place. Only a dropped focus is restored, never one the user has put elsewhere.
  const focusAfterMove = useRef<HTMLElement | null>(null);
  const order = rows.map((r) => r.id).join();
  useLayoutEffect(() => {
    const control = focusAfterMove.current;
    const dropped = document.activeElement === null || document.activeElement === document.body;
    if (order && dropped && control?.isConnected) control.focus({ preventScroll: true });
  }, [order]);

  function moveTo(id: string, position: number | undefined) {
    if (position === undefined) return;
    focusAfterMove.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // A move that changes where a key is read from is shown first and saved once confirmed.
    const changes = preview({ kind: "move", id, position });
    if (changes && changes.length > 0) setPending({ id, position, changes });
    else save(id, position);
  }

  function save(id: string, position: number) {
    move.mutateAsync({ id, position }).then(
      () => setAnnouncement(`Moved import ${labelOf(id)} to position ${position} of ${total}.`),
      (error: unknown) => toast.error("Could not move the import", errorSummary(error, "The server refused the move")),
    );
  }

  function handleDragEnd({ active, over }: DragEndEvent) {
    moveTo(String(active.id), dropTarget(rows, String(active.id), over ? String(over.id) : undefined));
  }

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={handleDragEnd}
      accessibility={{ announcements, screenReaderInstructions: { draggable: instructions } }}
    >
      <SortableContext items={rows.map((r) => r.id)} strategy={verticalListSortingStrategy}>
        <ol
          aria-label={`Imports of ${folder.environment}:${folder.path}`}
          className="overflow-hidden rounded-xl border border-border bg-card shadow-xs"
        >
          {rows.map((row, index) => (
            <ImportRowItem
              key={row.id}
              folder={folder}
              row={row}
              total={total}
              keys={provided?.get(row.id)}
              keysState={providedState}
              sourceMissing={missing.has(row.id)}
              labelOf={(id) => labelOf(id)}
              reorderDenied={editDenied}
              deleteDenied={deleteDenied}
              isFirst={index === 0}
              isLast={index === total - 1}
              onStep={(step) => moveTo(row.id, stepTarget(rows, row.id, step))}
              removalChanges={() => preview({ kind: "remove", id: row.id })}
            />
          ))}
        </ol>
      </SortableContext>
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      <ConfirmDialog
        open={pending !== undefined}
        onOpenChange={(open) => {
          if (!open) setPending(undefined);
        }}
        title={pending ? `Move ${labelOf(pending.id)} to position ${pending.position}?` : "Move import?"}
        description={
          <p>
            {pending?.changes.length === 1 ? "One key" : `${pending?.changes.length ?? 0} keys`} would be read from
            elsewhere here. Clients reading this folder get the new value once the move is saved.
          </p>
        }
        confirmLabel="Move import"
        onConfirm={() => {
          if (pending) save(pending.id, pending.position);
          setPending(undefined);
        }}
      >
        {pending ? <KeyChanges changes={pending.changes} /> : null}
      </ConfirmDialog>
    </DndContext>
  );
}
