import { FileUp } from "lucide-react";
import { type DragEvent, useId, useRef, useState } from "react";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { cn } from "@/lib/cn";
import { type CsvColumns, type CsvTable, csvColumnNames } from "../csv-file";
import { formatLabels, formatOfFileName, guessFormat, type ImportFormat, importFormats } from "../file-formats";

/** What is to be imported: a file's text or pasted text, and the format to read it as. */
export interface ImportSource {
  text: string;
  format: ImportFormat;
  /** The file's name, when it came from a file (its text is then not shown for editing). */
  fileName?: string | undefined;
  /** The format was picked (or the file's name says it): pasted text no longer changes it. */
  formatChosen?: boolean | undefined;
}

/** Files past this size are refused before reading: one batch of them could not be sent anyway. */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

const count = new Intl.NumberFormat("en");

const linkClasses =
  "rounded-sm text-[13px] font-medium text-accent-text underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring";

const FORMAT_HINTS: Record<ImportFormat, string> = {
  env: "KEY=value lines; comment lines right above a key become its comment.",
  json: 'One object; nested keys are joined with _ and upper-cased: {"db": {"host": …}} gives DB_HOST.',
  yaml: "One mapping; nested keys are joined with _ and upper-cased, as for JSON.",
  csv: "Pick the columns that hold the keys and the values.",
};

interface ImportSourceFormProps {
  source: ImportSource;
  onChange: (source: ImportSource) => void;
  csv: { table: CsvTable; columns: CsvColumns; onColumns: (columns: CsvColumns) => void } | undefined;
  fileError: string | undefined;
  onFileError: (message: string | undefined) => void;
}

/** The import's first step: a file (picked or dropped) or pasted text, its format, and for CSV its columns. */
export function ImportSourceForm({ source, onChange, csv, fileError, onFileError }: ImportSourceFormProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const ids = { format: useId(), paste: useId(), drop: useId() };

  async function takeFile(file: File | undefined) {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      onFileError(`${file.name} is larger than 5 MB; import it in parts.`);
      return;
    }
    onFileError(undefined);
    const text = await file.text();
    const named = formatOfFileName(file.name);
    onChange({ text, fileName: file.name, format: named ?? guessFormat(text) ?? source.format, formatChosen: !!named });
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void takeFile(event.dataTransfer.files[0]);
  }

  const lines = source.text === "" ? 0 : source.text.split("\n").length;

  return (
    <div className="grid gap-5">
      <div
        role="group"
        aria-labelledby={ids.drop}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          "grid justify-items-center gap-2 rounded-lg border border-dashed border-input px-4 py-5 text-center",
          dragging && "border-accent bg-accent-subtle",
        )}
      >
        <FileUp aria-hidden className="size-5 text-muted-foreground" />
        <p id={ids.drop} className="text-sm">
          {source.fileName ? (
            <>
              <span className="font-mono">{source.fileName}</span>{" "}
              <span className="text-muted-foreground">({count.format(lines)} lines)</span>
            </>
          ) : (
            "Drop a .env, JSON, YAML or CSV file here"
          )}
        </p>
        <div className="flex flex-wrap justify-center gap-x-4 gap-y-1">
          <button type="button" onClick={() => fileInput.current?.click()} className={linkClasses}>
            {source.fileName ? "Choose another file" : "Choose a file"}
          </button>
          {source.fileName ? (
            <button
              type="button"
              onClick={() => onChange({ text: "", format: source.format, formatChosen: source.formatChosen })}
              className={linkClasses}
            >
              Paste text instead
            </button>
          ) : null}
        </div>
        <input
          ref={fileInput}
          type="file"
          aria-label="File to import"
          accept=".env,.json,.yaml,.yml,.csv,.txt,text/plain,application/json"
          className="sr-only"
          tabIndex={-1}
          onChange={(event) => {
            void takeFile(event.target.files?.[0]);
            event.target.value = "";
          }}
        />
        {fileError ? (
          <p role="alert" className="text-[13px] text-destructive-subtle-foreground">
            {fileError}
          </p>
        ) : null}
      </div>

      <div className="grid gap-2">
        <Label htmlFor={ids.format}>Format</Label>
        <Select
          id={ids.format}
          value={source.format}
          onChange={(event) => onChange({ ...source, format: event.target.value as ImportFormat, formatChosen: true })}
        >
          {importFormats.map((format) => (
            <option key={format} value={format}>
              {formatLabels[format]}
            </option>
          ))}
        </Select>
        <p className="text-[13px] text-muted-foreground">{FORMAT_HINTS[source.format]}</p>
      </div>

      {source.fileName ? null : (
        <div className="grid gap-2">
          <Label htmlFor={ids.paste}>Or paste the contents</Label>
          <Textarea
            id={ids.paste}
            value={source.text}
            onChange={(event) => {
              const text = event.target.value;
              const format = source.formatChosen ? source.format : (guessFormat(text) ?? source.format);
              onChange({ ...source, text, format });
            }}
            rows={7}
            className="font-mono text-[13px]"
            autoComplete="off"
            spellCheck={false}
          />
        </div>
      )}

      {csv && csv.table.rows.length > 0 ? <CsvColumnPicker {...csv} /> : null}
    </div>
  );
}

function CsvColumnPicker({ table, columns, onColumns }: NonNullable<ImportSourceFormProps["csv"]>) {
  const names = csvColumnNames(table, columns.hasHeader);
  const ids = { key: useId(), value: useId(), comment: useId(), header: useId() };
  const options = names.map((name, index) => (
    <option key={name + String(index)} value={index}>
      {name}
    </option>
  ));
  return (
    <fieldset className="grid gap-3 rounded-lg border border-border p-4">
      <legend className="px-1 text-[13px] font-medium">CSV columns</legend>
      <label htmlFor={ids.header} className="inline-flex items-center gap-2 text-[13px]">
        <input
          id={ids.header}
          type="checkbox"
          checked={columns.hasHeader}
          onChange={(event) => onColumns({ ...columns, hasHeader: event.target.checked })}
          className="size-3.5 accent-accent"
        />
        The first row is a header
      </label>
      <div className="grid gap-3 sm:grid-cols-3">
        <div className="grid gap-1.5">
          <Label htmlFor={ids.key}>Key column</Label>
          <Select
            id={ids.key}
            size="sm"
            value={columns.key}
            onChange={(event) => onColumns({ ...columns, key: Number(event.target.value) })}
          >
            {options}
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={ids.value}>Value column</Label>
          <Select
            id={ids.value}
            size="sm"
            value={columns.value}
            onChange={(event) => onColumns({ ...columns, value: Number(event.target.value) })}
          >
            {options}
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={ids.comment}>Comment column</Label>
          <Select
            id={ids.comment}
            size="sm"
            value={columns.comment ?? ""}
            onChange={(event) =>
              onColumns({ ...columns, comment: event.target.value === "" ? undefined : Number(event.target.value) })
            }
          >
            <option value="">None</option>
            {options}
          </Select>
        </div>
      </div>
    </fieldset>
  );
}
