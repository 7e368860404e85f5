import type { Folder } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { Folder as FolderIcon, FolderPlus, Trash2 } from "lucide-react";
import { lazy, useState } from "react";
import { Link } from "react-router";
import { AfterFirstPaint } from "@/components/layout/after-first-paint";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { errorSummary } from "@/lib/describe-error";
import { contentCounts, folderContentsQuery } from "@/lib/folder-contents";
import { toast } from "@/lib/toast";
import type { SecretFolder } from "../api";
import { useDeleteFolder } from "../mutations";
import { secretQueries } from "../queries";
import { childPath, type SecretLocation } from "../secret-location";
import type { SecretGuards } from "./use-secret-guards";

// The create dialog (its form and validation) loads just after the page's first paint.
const CreateFolderDialog = lazy(async () => ({ default: (await import("./create-folder-dialog")).CreateFolderDialog }));

interface FoldersBarProps {
  folder: SecretFolder;
  guards: SecretGuards;
  href: (patch: Partial<SecretLocation>) => string;
}

/** The folders inside the current one: open one, add one, delete one. */
export function FoldersBar({ folder, guards, href }: FoldersBarProps) {
  const folders = useQuery(secretQueries.folders(folder));
  const [creating, setCreating] = useState(false);
  // The folder stays set while its confirmation closes, so the closing dialog keeps its text.
  const [deleting, setDeleting] = useState<Folder>();
  const [confirmOpen, setConfirmOpen] = useState(false);

  return (
    <section aria-label="Folders" className="flex flex-wrap items-center gap-2">
      {folders.isPending ? (
        <>
          <span className="sr-only" role="status">
            Loading folders…
          </span>
          <Skeleton className="h-8 w-24" />
          <Skeleton className="h-8 w-24" />
        </>
      ) : folders.isError ? (
        <p role="alert" className="flex items-center gap-2 text-[13px] text-destructive-subtle-foreground">
          {errorSummary(folders.error, "Could not load the folders")}
          <Button variant="link" size="sm" onClick={() => void folders.refetch()}>
            Try again
          </Button>
        </p>
      ) : folders.data.length > 0 ? (
        <ul aria-label="Folders in this folder" className="flex flex-wrap items-center gap-2">
          {folders.data.map((child) => (
            <li
              key={child.id}
              className="flex h-8 items-center rounded-md border border-border bg-card shadow-xs transition-colors hover:border-input"
            >
              <Link
                to={href({ secretPath: childPath(folder.secretPath, child.name) })}
                className="flex h-full items-center gap-2 rounded-l-md pr-2 pl-2.5 font-mono text-[13px] outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                <FolderIcon aria-hidden className="size-4 text-accent-text" />
                {child.name}
              </Link>
              <PermittedButton
                variant="ghost"
                size="icon-sm"
                className="mr-0.5 size-6 text-muted-foreground hover:text-destructive-subtle-foreground [&_svg]:size-3.5"
                aria-label={`Delete folder ${child.name}`}
                deniedReason={guards.deleteFolder}
                onClick={() => {
                  setDeleting(child);
                  setConfirmOpen(true);
                }}
              >
                <Trash2 aria-hidden />
              </PermittedButton>
            </li>
          ))}
        </ul>
      ) : null}
      <PermittedButton size="sm" deniedReason={guards.createFolder} onClick={() => setCreating(true)}>
        <FolderPlus aria-hidden />
        New folder
      </PermittedButton>
      <AfterFirstPaint fallback={null}>
        <CreateFolderDialog folder={folder} open={creating} onOpenChange={setCreating} />
      </AfterFirstPaint>
      <DeleteFolderDialog
        folder={folder}
        target={deleting}
        open={confirmOpen}
        onOpenChange={(open) => setConfirmOpen(open)}
      />
    </section>
  );
}

interface DeleteFolderDialogProps {
  folder: SecretFolder;
  target: Folder | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * Deletes a folder with everything in it (the server deletes recursively): the dialog counts what
 * the folder holds, and one that holds anything asks for its name.
 */
function DeleteFolderDialog({ folder, target, open, onOpenChange }: DeleteFolderDialogProps) {
  const remove = useDeleteFolder(folder);
  const inside: SecretFolder = { ...folder, secretPath: childPath(folder.secretPath, target?.name ?? "") };
  const contents = useQuery({
    ...folderContentsQuery([inside], open && target !== undefined),
    select: contentCounts,
  });
  const empty = contents.isSuccess && !contents.isFetching && contents.data.every((item) => item.count === 0);

  function close(next: boolean) {
    if (next) return;
    remove.reset();
    onOpenChange(false);
  }

  const name = target?.name ?? "";
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={close}
      title={`Delete folder ${name}?`}
      description={
        empty ? (
          <>The empty folder “{name}” will be deleted.</>
        ) : (
          <>“{name}” will be deleted with everything inside it, at every depth.</>
        )
      }
      removes={{
        name,
        counting: contents,
        sentence: (counts) => (
          <>
            Deleted with it: {counts} inside <span className="font-mono">{inside.secretPath}</span>.
          </>
        ),
      }}
      confirmLabel="Delete folder"
      pending={remove.isPending}
      error={remove.error ? errorSummary(remove.error, "Could not delete the folder") : undefined}
      onConfirm={() => {
        if (!target) return;
        remove.mutate(target, {
          onSuccess: () => {
            toast.success("Folder deleted", name);
            onOpenChange(false);
          },
        });
      }}
    />
  );
}
