import { ArrowLeft } from "lucide-react";
import { useMemo, useState } from "react";
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
import { type CsvColumns, csvEntries, guessCsvColumns, readCsvTable } from "../csv-file";
import { textParsers } from "../file-formats";
import type { ImportPlan } from "../import-plan";
import { useImportSecrets, usePlanImport } from "../mutations";
import { ImportPreview } from "./import-preview";
import { type ImportSource, ImportSourceForm } from "./import-source";

interface ImportDialogProps {
  folder: SecretFolder;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function ImportDialog({ folder, open, onOpenChange }: ImportDialogProps) {
  // The dialog's content is mounted only while open, so each opening starts afresh.
  const [dirty, setDirty] = useState(false);
  // While the batch is on its way the dialog stays: its answer (and any error) is shown here.
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!busy || next) onOpenChange(next);
      }}
      dirty={dirty}
      discardDescription="The file has not been imported. Closing discards it."
    >
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto">
        {open ? (
          <ImportFlow folder={folder} onDirty={setDirty} onBusy={setBusy} onClose={() => onOpenChange(false)} />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

const count = new Intl.NumberFormat("en");

interface ImportFlowProps {
  folder: SecretFolder;
  onDirty: (dirty: boolean) => void;
  onBusy: (busy: boolean) => void;
  onClose: () => void;
}

function ImportFlow({ folder, onDirty, onBusy, onClose }: ImportFlowProps) {
  const [source, setSource] = useState<ImportSource>({ text: "", format: "env" });
  const [fileError, setFileError] = useState<string>();
  const [csvColumns, setCsvColumns] = useState<CsvColumns>();
  const [plan, setPlan] = useState<ImportPlan>();
  const planning = usePlanImport(folder);
  const importing = useImportSecrets(folder);

  const csvTable = useMemo(
    () => (source.format === "csv" && source.text !== "" ? readCsvTable(source.text) : undefined),
    [source.format, source.text],
  );
  const columns = csvTable ? (csvColumns ?? guessCsvColumns(csvTable)) : undefined;

  function changeSource(next: ImportSource) {
    setSource(next);
    // New text: its columns are guessed again.
    if (next.text !== source.text) setCsvColumns(undefined);
    onDirty(next.text !== "");
    planning.reset();
  }

  function preview() {
    const parsed =
      source.format === "csv"
        ? csvEntries(csvTable ?? readCsvTable(""), columns ?? { hasHeader: false, key: 0, value: 1 })
        : textParsers[source.format](source.text);
    planning.mutate(parsed, { onSuccess: setPlan });
  }

  function runImport(current: ImportPlan) {
    onBusy(true);
    // Each outcome releases the dialog itself: closing unmounts this flow, after which an
    // `onSettled` of this call would no longer run.
    importing.mutate(current, {
      onError: () => onBusy(false),
      onSuccess: (counts) => {
        onBusy(false);
        onDirty(false);
        toast.success(
          "Secrets imported",
          `${count.format(counts.new)} new and ${count.format(counts.changed)} changed in ${folder.environment}:${folder.secretPath}`,
        );
        onClose();
      },
    });
  }

  const where = (
    <>
      <span className="font-mono text-foreground">{folder.secretPath}</span> in {folder.environment}
    </>
  );

  if (plan) {
    const writes = plan.counts.new + plan.counts.changed;
    return (
      <>
        <DialogHeader>
          <DialogTitle>Review the import</DialogTitle>
          <DialogDescription>
            {count.format(plan.items.length + plan.counts.invalid)} entries read from the file, for {where}. Nothing is
            written until you import; invalid lines are skipped.
          </DialogDescription>
        </DialogHeader>
        <FormAlert
          message={
            importing.error
              ? `${errorSummary(importing.error, "Could not import the secrets")} Nothing was written: the import is all or nothing.`
              : undefined
          }
        />
        <ImportPreview folder={folder} plan={plan} />
        {importing.isPending ? (
          <div role="status" className="grid gap-2 text-[13px] text-muted-foreground">
            <span className="inline-flex items-center gap-2">
              <Spinner /> Writing {count.format(writes)} secrets in one batch…
            </span>
            <div className="h-1 overflow-hidden rounded-full bg-muted" role="progressbar" aria-label="Import progress">
              <div className="h-full w-1/3 animate-pulse rounded-full bg-accent" />
            </div>
          </div>
        ) : null}
        <DialogFooter>
          <Button
            variant="secondary"
            disabled={importing.isPending}
            onClick={() => {
              importing.reset();
              setPlan(undefined);
            }}
          >
            <ArrowLeft aria-hidden />
            Back
          </Button>
          <Button
            variant="primary"
            disabled={writes === 0 || importing.isPending}
            aria-busy={importing.isPending || undefined}
            onClick={() => runImport(plan)}
          >
            {importing.isPending ? <Spinner /> : null}
            {writes === 0
              ? "Nothing to import"
              : `Import ${count.format(writes)} ${writes === 1 ? "secret" : "secrets"}`}
          </Button>
        </DialogFooter>
      </>
    );
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Import secrets</DialogTitle>
        <DialogDescription>
          From a file or pasted text, into {where}. You see what changes before anything is written.
        </DialogDescription>
      </DialogHeader>
      <FormAlert
        message={planning.error ? errorSummary(planning.error, "Could not read the folder's secrets") : undefined}
      />
      <ImportSourceForm
        source={source}
        onChange={changeSource}
        csv={csvTable && columns ? { table: csvTable, columns, onColumns: setCsvColumns } : undefined}
        fileError={fileError}
        onFileError={setFileError}
      />
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary" disabled={planning.isPending}>
            Cancel
          </Button>
        </DialogClose>
        <Button
          variant="primary"
          disabled={source.text.trim() === "" || planning.isPending}
          aria-busy={planning.isPending || undefined}
          onClick={preview}
        >
          {planning.isPending ? <Spinner /> : null}
          Preview
        </Button>
      </DialogFooter>
    </>
  );
}
