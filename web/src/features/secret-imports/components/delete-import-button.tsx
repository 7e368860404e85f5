import { DeleteWithConfirm } from "@/components/permissions/delete-with-confirm";
import type { ImportingFolder } from "../api";
import { useDeleteImport } from "../mutations";
import type { KeyChange } from "../change-preview";
import { type ImportRow, sourceLabel } from "../provided-keys";
import { KeyChanges } from "./key-changes";

interface DeleteImportButtonProps {
  folder: ImportingFolder;
  row: ImportRow;
  deniedReason: string | undefined;
  /** The keys the removal would hand to another supplier; undefined when that cannot be told. */
  changes: () => KeyChange[] | undefined;
}

export function DeleteImportButton({ folder, row, deniedReason, changes }: DeleteImportButtonProps) {
  const remove = useDeleteImport(folder);
  const label = sourceLabel(row);
  return (
    <DeleteWithConfirm
      id={row.id}
      remove={remove}
      label={`Remove import ${label}`}
      action="Remove import"
      description={
        <div className="grid gap-3">
          <p>
            Secrets of <code className="font-mono text-xs text-foreground">{label}</code> stop being readable here.
            Clients that rely on them get the next import&apos;s value, or none. The source folder is not changed.
          </p>
          <RemovalPreview changes={changes} />
        </div>
      }
      done={{ title: "Import removed", detail: label }}
      failure="Could not remove the import"
      deniedReason={deniedReason}
    />
  );
}

/** Worked out when the confirmation opens, not with every row. */
function RemovalPreview({ changes }: { changes: () => KeyChange[] | undefined }) {
  const list = changes();
  if (list === undefined) {
    return <p>Which keys would change cannot be told: the keys of some imports could not be read.</p>;
  }
  if (list.length === 0)
    return <p>No key would be read from elsewhere: every key it provides is supplied by another source already.</p>;
  return (
    <div className="grid gap-1.5">
      <p>{list.length === 1 ? "One key" : `${list.length} keys`} would be read from elsewhere:</p>
      <KeyChanges changes={list} />
    </div>
  );
}
