import { useQuery } from "@tanstack/react-query";
import { Command } from "cmdk";
import { Check, Folder } from "lucide-react";
import { type Ref, useId } from "react";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/cn";
import { errorSummary } from "@/lib/describe-error";
import { normalisePath } from "../import-form";
import { secretImportQueries } from "../queries";
import { folderChoices, folderExists, splitFolderPath } from "../source-folders";

interface SourceFolderPickerProps {
  projectId: string;
  /** The source environment's slug; "" until one is chosen. */
  environment: string;
  value: string;
  onChange: (path: string) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  /** Names the input for assistive technology (the picker's own label). */
  label: string;
  invalid?: boolean;
  describedBy?: string | undefined;
}

const message = "px-2 py-2 text-[13px] text-muted-foreground";

/**
 * A folder path, typed or chosen among the source environment's folders: the typed folder and
 * its sub-folders when it exists, otherwise the folders beside it matching what is typed. Each
 * listing is one level, so it reads the same from every server.
 */
export function SourceFolderPicker(props: SourceFolderPickerProps) {
  const { projectId, environment, value, onChange, onBlur, inputRef, label, invalid, describedBy } = props;
  const path = normalisePath(value);
  const at = path === undefined ? undefined : splitFolderPath(path);
  const chosen = environment !== "";
  const beside = useQuery({
    ...secretImportQueries.subFolders({ projectId, environment, path: at?.parent ?? "/" }),
    enabled: chosen && at !== undefined,
  });
  const exists = path !== undefined && folderExists(path, beside.data) === true;
  const inside = useQuery({
    ...secretImportQueries.subFolders({ projectId, environment, path: path ?? "/" }),
    enabled: chosen && exists,
  });
  const choices = chosen && path !== undefined ? folderChoices(path, beside.data, inside.data) : [];
  const error = beside.error ?? inside.error;
  const loading = beside.isLoading || inside.isLoading;

  const noteId = useId();
  let note: string | undefined;
  if (!chosen) note = "Choose the source environment to list its folders.";
  else if (path === undefined) note = "A path is / or /folder/sub-folder.";
  else if (error) note = `Could not list the folders of ${environment}: ${errorSummary(error, "The server refused")}`;
  else if (loading && choices.length === 0) note = "Loading folders…";
  else if (choices.length === 0) note = `No folder of ${environment} matches ${path}.`;

  return (
    <Command shouldFilter={false} label={label} className="grid gap-2">
      <div className="relative">
        <Folder
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Command.Input
          ref={inputRef}
          value={value}
          onValueChange={onChange}
          onBlur={onBlur}
          aria-invalid={invalid || undefined}
          aria-describedby={[describedBy, note ? noteId : undefined].filter(Boolean).join(" ") || undefined}
          className={cn(
            "flex h-9 w-full min-w-0 rounded-md border border-input bg-card pr-9 pl-9 font-mono text-[13px] shadow-xs outline-none",
            "placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-3 focus-visible:ring-ring/25",
            "aria-invalid:border-destructive aria-invalid:focus-visible:ring-destructive/20",
          )}
        />
        {loading ? <Spinner className="absolute top-1/2 right-3 -translate-y-1/2" /> : null}
      </div>
      {/* The note sits beside the listbox, which may hold options only; an empty listbox is hidden. */}
      <div className="max-h-44 overflow-y-auto rounded-md border border-border bg-card p-1">
        {note ? (
          <p id={noteId} role={error ? "alert" : undefined} className={message}>
            {note}
          </p>
        ) : null}
        <Command.List label={chosen ? `Folders of ${environment}` : "Folders"} hidden={choices.length === 0}>
          {choices.map((choice) => (
            <Command.Item
              key={choice}
              value={choice}
              onSelect={() => onChange(choice)}
              className={cn(
                "flex cursor-default items-center gap-2 rounded-md px-2 py-1.5 font-mono text-[13px] outline-none",
                "data-[selected=true]:bg-hover",
              )}
            >
              <Check
                aria-hidden
                className={cn("size-4 shrink-0", choice === path ? "text-accent-text" : "invisible")}
              />
              <span className="truncate">{choice}</span>
            </Command.Item>
          ))}
        </Command.List>
      </div>
    </Command>
  );
}
