import type { Environment } from "@keyhold/contract";
import { ArrowRight } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { ImportingFolder } from "../api";
import { normalisePath } from "../import-form";
import { EnvironmentSelect } from "./environment-select";

interface FolderPickerProps {
  environments: readonly Pick<Environment, "slug" | "name">[];
  folder: ImportingFolder;
  onChange: (next: { environment: string; path: string }) => void;
}

/** Which folder's imports are shown: the environment applies at once, a typed path on Enter or "Show". */
export function FolderPicker({ environments, folder, onChange }: FolderPickerProps) {
  const id = useId();
  // Keyed by the shown path from outside, so a path from the URL (back, a link) replaces what is typed.
  const [typed, setTyped] = useState(folder.path);
  const [invalid, setInvalid] = useState(false);

  return (
    <form
      aria-label="Folder"
      className="flex flex-wrap items-end gap-3 rounded-xl border border-border bg-card p-3 shadow-xs"
      onSubmit={(event) => {
        event.preventDefault();
        const path = normalisePath(typed);
        setInvalid(path === undefined);
        if (path !== undefined) onChange({ environment: folder.environment, path });
      }}
    >
      <div className="grid w-56 gap-1.5">
        <Label htmlFor={`${id}-env`}>Environment</Label>
        <EnvironmentSelect
          id={`${id}-env`}
          environments={environments}
          value={folder.environment}
          onChange={(event) => onChange({ environment: event.target.value, path: folder.path })}
        />
      </div>
      <div className="grid min-w-56 flex-1 gap-1.5">
        <Label htmlFor={`${id}-path`}>Folder path</Label>
        <Input
          id={`${id}-path`}
          value={typed}
          spellCheck={false}
          autoComplete="off"
          className="font-mono text-[13px]"
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${id}-path-error` : undefined}
          onChange={(event) => setTyped(event.target.value)}
        />
      </div>
      <Button type="submit" size="md">
        Show
        <ArrowRight aria-hidden />
      </Button>
      {invalid ? (
        <p id={`${id}-path-error`} className="basis-full text-[13px] text-destructive-subtle-foreground">
          A path is / or /folder/sub-folder, with letters, digits, dashes and underscores.
        </p>
      ) : null}
    </form>
  );
}
