import { Download, Upload } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { PermittedButton } from "@/components/permissions/permitted-button";
import type { SecretFolder } from "../../api";
import type { SecretGuards } from "../../components/use-secret-guards";

// The dialogs (and the file readers they use) load when one is first opened.
const ImportDialog = lazy(async () => ({ default: (await import("./import-dialog")).ImportDialog }));
const ExportDialog = lazy(async () => ({ default: (await import("./export-dialog")).ExportDialog }));

/** Why the caller may not import: it needs to create and edit secrets, and to read values to compare. */
const importDenied = (guards: SecretGuards) => guards.create ?? guards.edit ?? guards.readValue;

/** The secrets page's Import and Export buttons, each opening its dialog for the current folder. */
export function FileActions({ folder, guards }: { folder: SecretFolder; guards: SecretGuards }) {
  const [opened, setOpened] = useState<"import" | "export">();
  const [loaded, setLoaded] = useState<{ import?: true; export?: true }>({});
  const open = (which: "import" | "export") => {
    setLoaded((current) => ({ ...current, [which]: true }));
    setOpened(which);
  };
  const close = (open: boolean) => {
    if (!open) setOpened(undefined);
  };
  return (
    <>
      <PermittedButton size="sm" deniedReason={importDenied(guards)} onClick={() => open("import")}>
        <Upload aria-hidden />
        Import
      </PermittedButton>
      <PermittedButton size="sm" deniedReason={guards.readValue} onClick={() => open("export")}>
        <Download aria-hidden />
        Export
      </PermittedButton>
      <Suspense fallback={null}>
        {loaded.import ? <ImportDialog folder={folder} open={opened === "import"} onOpenChange={close} /> : null}
        {loaded.export ? <ExportDialog folder={folder} open={opened === "export"} onOpenChange={close} /> : null}
      </Suspense>
    </>
  );
}
