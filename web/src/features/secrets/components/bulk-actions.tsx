import { useQuery } from "@tanstack/react-query";
import { Copy, FolderInput, Trash2, X } from "lucide-react";
import { useId, useState } from "react";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { errorSummary } from "@/lib/describe-error";
import { toast } from "@/lib/toast";
import type { SecretFolder } from "../api";
import { useCopySecrets, useDeleteSecrets, useMoveSecrets } from "../batch-mutations";
import { secretQueries } from "../queries";
import { childPath } from "../secret-location";
import { type Staged, unstage } from "../staging/staged-changes";
import { useStaging } from "./staging-context";
import type { SecretGuards } from "./use-secret-guards";

interface BulkActionsProps {
  folder: SecretFolder;
  guards: SecretGuards;
  secretKeys: ReadonlySet<string>;
  onClear: () => void;
}

type Action = "delete" | "move" | "copy";

const plural = (count: number) => `${count} ${count === 1 ? "secret" : "secrets"}`;

/** Up to five keys by name, then how many more. */
function keyList(keys: readonly string[]) {
  const shown = keys.slice(0, 5).join(", ");
  return keys.length > 5 ? `${shown} and ${keys.length - 5} more` : shown;
}

/**
 * What can be done to the selected secrets at once: delete them, move them to another folder,
 * copy them to other environments. Each is confirmed first and is one batch per folder written.
 */
export function BulkActions({ folder, guards, secretKeys, onClear }: BulkActionsProps) {
  const [action, setAction] = useState<Action>();
  const [open, setOpen] = useState(false);
  const keys = [...secretKeys].sort();
  const ask = (next: Action) => {
    setAction(next);
    setOpen(true);
  };
  const close = () => setOpen(false);

  return (
    <div
      role="toolbar"
      aria-label="Selected secrets"
      className="flex flex-wrap items-center gap-2 rounded-lg border border-border bg-surface px-3 py-2"
    >
      <span className="mr-auto flex items-center gap-1">
        <Button size="icon-sm" variant="ghost" className="size-7" onClick={onClear} aria-label="Clear the selection">
          <X aria-hidden />
        </Button>
        <span className="text-[13px] font-medium tabular-nums" role="status">
          {plural(keys.length)} selected
        </span>
      </span>
      <PermittedButton
        size="sm"
        variant="secondary"
        deniedReason={guards.readValue ?? guards.create}
        onClick={() => ask("move")}
      >
        <FolderInput aria-hidden />
        Move to folder…
      </PermittedButton>
      <PermittedButton size="sm" variant="secondary" deniedReason={guards.readValue} onClick={() => ask("copy")}>
        <Copy aria-hidden />
        Copy to environments…
      </PermittedButton>
      <PermittedButton size="sm" variant="destructive" deniedReason={guards.delete} onClick={() => ask("delete")}>
        <Trash2 aria-hidden />
        Delete
      </PermittedButton>
      {action === "delete" ? (
        <BulkDelete folder={folder} keys={keys} open={open} onClose={close} onDone={onClear} />
      ) : action === "move" ? (
        <BulkMove folder={folder} keys={keys} open={open} onClose={close} onDone={onClear} />
      ) : action === "copy" ? (
        <BulkCopy folder={folder} keys={keys} open={open} onClose={close} onDone={onClear} />
      ) : null}
    </div>
  );
}

interface BulkDialogProps {
  folder: SecretFolder;
  keys: readonly string[];
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}

/** Secrets gone from the folder take their pending changes with them. */
function forget(staged: Staged, folder: SecretFolder, keys: readonly string[]) {
  return keys.reduce((current, key) => unstage(current, folder, key), staged);
}

function BulkDelete({ folder, keys, open, onClose, onDone }: BulkDialogProps) {
  const remove = useDeleteSecrets(folder);
  const { change } = useStaging();
  const many = keys.length > 1;
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        if (next) return;
        remove.reset();
        onClose();
      }}
      title={`Delete ${plural(keys.length)}?`}
      description={
        <>
          <span className="font-mono text-foreground">{keyList(keys)}</span> will be deleted from {folder.secretPath} in{" "}
          {folder.environment}, in one request. Anything that reads them will stop finding them.
        </>
      }
      confirmLabel={`Delete ${plural(keys.length)}`}
      // More than one goes at once: the count is typed, as for any delete that takes others with it.
      confirmText={many ? plural(keys.length) : undefined}
      pending={remove.isPending}
      error={remove.error ? errorSummary(remove.error, "Nothing was deleted") : undefined}
      onConfirm={() =>
        remove.mutate(keys, {
          onSuccess: () => {
            change((current) => forget(current, folder, keys));
            toast.success(`${plural(keys.length)} deleted`, folder.secretPath);
            onClose();
            onDone();
          },
        })
      }
    />
  );
}

function BulkMove({ folder, keys, open, onClose, onDone }: BulkDialogProps) {
  const move = useMoveSecrets(folder);
  const { change } = useStaging();
  const [target, setTarget] = useState("");
  const inputId = useId();
  const listId = useId();
  const folders = useQuery({ ...secretQueries.folders(folder), enabled: open });
  const toPath = normalisePath(target);
  const same = toPath === folder.secretPath;
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        if (next) return;
        move.reset();
        onClose();
      }}
      title={`Move ${plural(keys.length)}?`}
      description={
        <>
          <span className="font-mono text-foreground">{keyList(keys)}</span> will be created in the folder you choose
          (one request, refused as a whole if a key is there already), then deleted here (one request).
        </>
      }
      confirmLabel={`Move ${plural(keys.length)}`}
      blocked={!toPath || same}
      pending={move.isPending}
      error={move.error ? errorSummary(move.error, "The secrets were not moved") : undefined}
      onConfirm={() => {
        if (!toPath) return;
        move.mutate(
          { secretKeys: keys, toPath },
          {
            onSuccess: () => {
              change((current) => forget(current, folder, keys));
              toast.success(`${plural(keys.length)} moved`, `${folder.environment}:${toPath}`);
              onClose();
              onDone();
            },
          },
        );
      }}
    >
      <div className="grid gap-2">
        <Label htmlFor={inputId}>Folder in {folder.environment}</Label>
        <Input
          id={inputId}
          list={listId}
          value={target}
          onChange={(event) => setTarget(event.target.value)}
          placeholder="/app/api"
          className="font-mono"
          autoComplete="off"
          spellCheck={false}
        />
        <datalist id={listId}>
          {folder.secretPath !== "/" ? <option value="/" /> : null}
          {(folders.data ?? []).map((entry) => (
            <option key={entry.id} value={childPath(folder.secretPath, entry.name)} />
          ))}
        </datalist>
        {same ? <p className="text-[13px] text-muted-foreground">They are in this folder already.</p> : null}
      </div>
    </ConfirmDialog>
  );
}

/** "/a/b" from what was typed ("a/b", "/a/b/"); undefined when empty. */
function normalisePath(typed: string): string | undefined {
  const parts = typed.split("/").filter((part) => part.trim() !== "");
  if (typed.trim() === "") return undefined;
  return `/${parts.join("/")}`;
}

function BulkCopy({ folder, keys, open, onClose, onDone }: BulkDialogProps) {
  const copy = useCopySecrets(folder);
  const environments = useQuery({ ...secretQueries.environments(folder.projectId), enabled: open });
  const others = (environments.data ?? []).filter((env) => env.slug !== folder.environment);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        if (next) return;
        copy.reset();
        onClose();
      }}
      title={`Copy ${plural(keys.length)} to other environments?`}
      description={
        <>
          <span className="font-mono text-foreground">{keyList(keys)}</span> will be written to {folder.secretPath} of
          each environment you choose, one request each: where a key exists there, its value and comment are replaced.
        </>
      }
      confirmLabel="Copy"
      blocked={chosen.size === 0}
      pending={copy.isPending}
      error={copy.error ? errorSummary(copy.error, "The secrets were not copied") : undefined}
      onConfirm={() =>
        copy.mutate(
          { secretKeys: keys, environments: [...chosen] },
          {
            onSuccess: () => {
              toast.success(`${plural(keys.length)} copied`, [...chosen].join(", "));
              onClose();
              onDone();
            },
          },
        )
      }
    >
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-[13px] font-medium">Environments</legend>
        {others.length === 0 ? (
          <p className="text-[13px] text-muted-foreground">
            {environments.isPending ? "Loading the environments…" : "This project has no other environment."}
          </p>
        ) : (
          others.map((env) => (
            <label key={env.slug} className="flex items-center gap-2 text-[13px]">
              <input
                type="checkbox"
                className="size-4 accent-accent"
                checked={chosen.has(env.slug)}
                onChange={(event) =>
                  setChosen((current) => {
                    const next = new Set(current);
                    if (event.target.checked) next.add(env.slug);
                    else next.delete(env.slug);
                    return next;
                  })
                }
              />
              {env.name} <span className="font-mono text-muted-foreground">{env.slug}</span>
            </label>
          ))
        )}
      </fieldset>
    </ConfirmDialog>
  );
}
