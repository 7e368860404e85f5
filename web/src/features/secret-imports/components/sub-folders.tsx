import { useQuery } from "@tanstack/react-query";
import { CornerLeftUp, Folder } from "lucide-react";
import type { ImportingFolder } from "../api";
import { secretImportQueries } from "../queries";

interface SubFoldersProps {
  folder: ImportingFolder;
  onOpen: (path: string) => void;
}

const chip =
  "inline-flex h-7 items-center gap-1.5 rounded-md border border-border bg-card px-2 font-mono text-xs text-foreground outline-none hover:bg-hover focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-3.5 [&_svg]:text-muted-foreground";

function parentOf(path: string): string {
  const parent = path.slice(0, path.lastIndexOf("/"));
  return parent === "" ? "/" : parent;
}

/** The shown folder's parent and sub-folders, one click (or Enter) away; silent while loading. */
export function SubFolders({ folder, onOpen }: SubFoldersProps) {
  const { data, isError } = useQuery(secretImportQueries.subFolders(folder));
  const label = `${folder.environment}:${folder.path}`;
  if (isError) return <p className="text-[13px] text-muted-foreground">The folders in {label} could not be listed.</p>;
  if (!data || (data.length === 0 && folder.path === "/")) return null;

  return (
    <nav aria-label={`Folders in ${label}`} className="flex flex-wrap items-center gap-1.5">
      <span className="mr-1 text-[13px] text-muted-foreground">Folders here:</span>
      {folder.path === "/" ? null : (
        <button type="button" className={chip} onClick={() => onOpen(parentOf(folder.path))}>
          <CornerLeftUp aria-hidden />
          <span className="sr-only">Up to </span>
          {parentOf(folder.path)}
        </button>
      )}
      {data.map((name) => (
        <button
          key={name}
          type="button"
          className={chip}
          onClick={() => onOpen(folder.path === "/" ? `/${name}` : `${folder.path}/${name}`)}
        >
          <Folder aria-hidden />
          {name}
        </button>
      ))}
      {data.length === 0 ? <span className="text-[13px] text-muted-foreground">none below this one</span> : null}
    </nav>
  );
}
