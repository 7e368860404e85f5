import { DeleteWithConfirm } from "@/components/permissions/delete-with-confirm";
import type { ImportingFolder } from "../api";
import { useDeleteImport } from "../mutations";
import { type ImportRow, sourceLabel } from "../provided-keys";

interface DeleteImportButtonProps {
  folder: ImportingFolder;
  row: ImportRow;
  deniedReason: string | undefined;
}

export function DeleteImportButton({ folder, row, deniedReason }: DeleteImportButtonProps) {
  const remove = useDeleteImport(folder);
  const label = sourceLabel(row);
  return (
    <DeleteWithConfirm
      id={row.id}
      remove={remove}
      label={`Remove import ${label}`}
      action="Remove import"
      description={
        <p>
          Secrets of <code className="font-mono text-xs text-foreground">{label}</code> stop being readable here.
          Clients that rely on them get the next import&apos;s value, or none. The source folder is not changed.
        </p>
      }
      done={{ title: "Import removed", detail: label }}
      failure="Could not remove the import"
      deniedReason={deniedReason}
    />
  );
}
