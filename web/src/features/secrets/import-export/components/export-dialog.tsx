import { Download } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { Spinner } from "@/components/ui/spinner";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import type { SecretFolder } from "../../api";
import { type ExportFormat, exportFile, exportFileName, exportFormats, formatLabels } from "../file-formats";
import { useExportSecrets } from "../mutations";

interface ExportDialogProps {
  folder: SecretFolder;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

const count = new Intl.NumberFormat("en");

/** Hands the text to the browser as a download; the object URL is revoked once the click has taken it. */
function download(text: string, type: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

const FORMAT_NOTES: Record<ExportFormat, string> = {
  env: "KEY=value lines, quoted where needed (multiline values too); comments above their keys.",
  json: "One flat object of keys and values.",
  yaml: "One flat mapping; multiline values as block text.",
};

/**
 * Exports the folder as a file built in the browser: the values are read for this export alone
 * (one list call), written into the file and dropped; nothing is cached or stored.
 */
export function ExportDialog({ folder, open, onOpenChange }: ExportDialogProps) {
  const [format, setFormat] = useState<ExportFormat>("env");
  const [withImports, setWithImports] = useState(false);
  const exporting = useExportSecrets(folder);
  const importsId = useId();
  // An export with nothing in it says so here instead of downloading an empty file.
  const [nothing, setNothing] = useState(false);

  function run() {
    setNothing(false);
    exporting.mutate(
      {
        withImports,
        deliver: ({ secrets }) => {
          if (secrets.length === 0) return;
          const file = exportFile(format, secrets);
          download(file.text, file.type, exportFileName(format, folder.environment, folder.secretPath));
        },
      },
      {
        onSuccess: ({ count: exported, hidden }) => {
          if (exported === 0) return setNothing(true);
          toast.success(
            "Secrets exported",
            hidden > 0
              ? `${count.format(exported)} secrets; ${count.format(hidden)} you may not read were left out`
              : `${count.format(exported)} secrets`,
          );
          onOpenChange(false);
        },
      },
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (exporting.isPending) return;
        if (!next) {
          exporting.reset();
          setNothing(false);
        }
        onOpenChange(next);
      }}
    >
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Export secrets</DialogTitle>
          <DialogDescription>
            The secrets of <span className="font-mono text-foreground">{folder.secretPath}</span> in{" "}
            {folder.environment}, with their values, as a file you download.
          </DialogDescription>
        </DialogHeader>
        <FormAlert
          message={
            exporting.error
              ? errorSummary(exporting.error, "Could not read the secrets")
              : nothing
                ? "There is nothing to export: the folder holds no secret whose value you may read."
                : undefined
          }
        />
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">Format</legend>
          {exportFormats.map((id) => (
            <label
              key={id}
              className="flex cursor-pointer items-start gap-3 rounded-lg border border-border px-3 py-2.5 has-checked:border-accent has-checked:bg-accent-subtle has-focus-visible:ring-2 has-focus-visible:ring-ring"
            >
              <input
                type="radio"
                name="export-format"
                value={id}
                checked={format === id}
                onChange={() => setFormat(id)}
                className="mt-0.5 size-3.5 accent-accent"
              />
              <span className="grid gap-0.5">
                <span className="text-sm font-medium">{formatLabels[id]}</span>
                <span className="text-[13px] text-muted-foreground">{FORMAT_NOTES[id]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <label htmlFor={importsId} className="flex items-start gap-3 text-[13px]">
          <input
            id={importsId}
            type="checkbox"
            checked={withImports}
            onChange={(event) => setWithImports(event.target.checked)}
            className="mt-0.5 size-3.5 accent-accent"
          />
          <span>
            Include what this folder's imports provide
            <span className="block text-muted-foreground">
              Keys the folder lacks, from the import that wins each (the folder's own keys win).
            </span>
          </span>
        </label>
        <p className="rounded-md border border-warning-border bg-warning-subtle px-3 py-2 text-[13px] text-warning-subtle-foreground">
          The file holds the values in plain text. Keep it as safe as the secrets themselves.
        </p>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="secondary" disabled={exporting.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <Button
            variant="primary"
            onClick={run}
            disabled={exporting.isPending}
            aria-busy={exporting.isPending || undefined}
          >
            {exporting.isPending ? <Spinner /> : <Download aria-hidden />}
            Download {formatLabels[format]}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
