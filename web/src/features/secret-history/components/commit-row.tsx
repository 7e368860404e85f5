import type { FolderCommit } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { ChevronRight, RotateCcw } from "lucide-react";
import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/cn";
import { errorSummary } from "@/lib/describe-error";
import { formatDateTime } from "@/lib/format";
import type { HistoryFolder } from "../api";
import { describeChanges } from "../history-model";
import { historyQueries } from "../queries";
import { ChangeList } from "./change-list";

interface CommitRowProps {
  folder: HistoryFolder;
  commit: FolderCommit;
  isLatest: boolean;
  onPreview: () => void;
}

/** One commit: what, when, who; its changes on request; a rollback preview to this point. */
export function CommitRow({ folder, commit, isLatest, onPreview }: CommitRowProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <li className="border-b border-border last:border-0">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
        <Button
          variant="ghost"
          size="icon-sm"
          aria-expanded={open}
          aria-controls={panelId}
          aria-label={`${open ? "Hide" : "Show"} what change ${commit.commitId} changed`}
          onClick={() => setOpen(!open)}
        >
          <ChevronRight aria-hidden className={cn("transition-transform", open && "rotate-90")} />
        </Button>
        <div className="grid min-w-48 flex-1 gap-0.5">
          <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
            <span className="truncate">{commit.message ?? "Change"}</span>
            <span className="font-mono text-xs text-muted-foreground">#{commit.commitId}</span>
            {isLatest ? <Badge tone="accent">Current</Badge> : null}
          </p>
          <p className="text-[13px] text-muted-foreground">
            <time dateTime={commit.createdAt}>{formatDateTime(commit.createdAt)}</time>
            {commit.actorMetadata.name ? <> · {commit.actorMetadata.name}</> : null}
            <span className="sr-only"> ({commit.actorType})</span>
          </p>
        </div>
        <Button
          size="sm"
          className="ml-12 sm:ml-0"
          onClick={onPreview}
          disabled={isLatest}
          title={isLatest ? "The folder is as this change left it" : undefined}
        >
          <RotateCcw aria-hidden />
          Preview rollback
        </Button>
      </div>
      {open ? (
        <div id={panelId} className="border-t border-border bg-surface px-4 py-3 sm:pl-16">
          <CommitChanges folder={folder} commitId={commit.id} />
        </div>
      ) : null}
    </li>
  );
}

function CommitChanges({ folder, commitId }: { folder: HistoryFolder; commitId: string }) {
  const changes = useQuery(historyQueries.changes(folder, commitId));
  if (changes.isPending) {
    return (
      <div aria-busy="true" className="grid gap-2">
        <span className="sr-only" role="status">
          Loading the changes…
        </span>
        <Skeleton className="h-4 w-56" />
        <Skeleton className="h-4 w-40" />
      </div>
    );
  }
  if (changes.isError) {
    return (
      <p role="alert" className="text-[13px] text-destructive-subtle-foreground">
        {errorSummary(changes.error, "The changes could not be read")}{" "}
        <Button variant="link" size="sm" onClick={() => void changes.refetch()}>
          Try again
        </Button>
      </p>
    );
  }
  return (
    <div className="grid gap-2">
      <p className="text-[13px] text-muted-foreground">{describeChanges(changes.data)}</p>
      <ChangeList changes={changes.data} labels={{ added: "Added", removed: "Removed", changed: "Changed" }} />
    </div>
  );
}
