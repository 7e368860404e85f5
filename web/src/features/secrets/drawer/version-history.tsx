import { errorNames, type SecretDetail, type SecretVersion } from "@keyhold/contract";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { ChevronRight, Eye, EyeOff, History, RotateCcw } from "lucide-react";
import { useId, useState } from "react";
import { ErrorPanel } from "@/components/errors/error-panel";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useProjectAbility } from "@/hooks/use-project-ability";
import { isApiError } from "@/lib/api-error";
import { cn } from "@/lib/cn";
import { errorSummary } from "@/lib/describe-error";
import { formatDateTime } from "@/lib/format";
import { toast } from "@/lib/toast";
import type { SecretFolder } from "../api";
import { secretQueries } from "../queries";
import { useUpdateSecret } from "./mutations";
import { drawerQueries } from "./queries";
import { VersionDiff } from "./version-diff";

interface VersionHistoryProps {
  folder: SecretFolder;
  secretKey: string;
  /** The details hold changes not saved yet (a restore would replace them). */
  unsavedChanges: boolean;
}

/** The secret's versions, newest first: who made each and when, a diff, and restore. */
export function VersionHistory({ folder, secretKey, unsavedChanges }: VersionHistoryProps) {
  const secret = useQuery(secretQueries.value(folder, secretKey));
  if (!secret.data) return secret.isError ? null : <HistorySkeleton />;
  return <Versions folder={folder} secret={secret.data} unsavedChanges={unsavedChanges} />;
}

function HistorySkeleton() {
  return (
    <div className="grid gap-2 p-6" aria-busy="true" aria-label="Loading the versions">
      <Skeleton className="h-12 w-full" />
      <Skeleton className="h-12 w-full" />
      <Skeleton className="h-12 w-full" />
    </div>
  );
}

type Compare = "previous" | "current";

function Versions({
  folder,
  secret,
  unsavedChanges,
}: {
  folder: SecretFolder;
  secret: SecretDetail;
  unsavedChanges: boolean;
}) {
  const query = useInfiniteQuery(drawerQueries.versions(folder.projectId, secret.id));
  const [revealed, setRevealed] = useState(false);
  const [open, setOpen] = useState<string>();
  const [compare, setCompare] = useState<Compare>("previous");
  const [restoring, setRestoring] = useState<SecretVersion>();
  const update = useUpdateSecret(folder);
  const ability = useProjectAbility(folder.projectId);

  if (query.isPending) return <HistorySkeleton />;
  if (isApiError(query.error, 403) && query.error.code === errorNames.userSessionOnly) {
    return (
      <p className="px-6 py-5 text-[13px] text-muted-foreground">
        Not available: This server gives a secret's versions only to a user's session, not to a machine identity.
      </p>
    );
  }
  if (query.isError) {
    return (
      <div className="p-6">
        <ErrorPanel error={query.error} title="Could not read the versions" onRetry={() => void query.refetch()} />
      </div>
    );
  }
  const versions = query.data.pages.flat();
  if (versions.length === 0) {
    return (
      <div className="p-6">
        <EmptyState icon={History} title="No versions" description="This server keeps no versions of this secret." />
      </div>
    );
  }
  const newest = versions[0];
  const expanded = open ?? newest?.id;

  async function restore(version: SecretVersion) {
    try {
      await update.mutateAsync({
        secretKey: secret.secretKey,
        secretId: secret.id,
        changes: { secretValue: version.secretValue },
      });
      toast.success(
        `Version ${version.version} restored`,
        `${secret.secretKey} has its value again, as a new version.`,
      );
      setRestoring(undefined);
      setOpen(undefined);
    } catch {
      // Shown in the confirmation from the mutation's error state.
    }
  }

  return (
    <div className="grid gap-4 px-6 py-5">
      <div className="flex items-center justify-between gap-3">
        <p className="text-[13px] text-muted-foreground">
          {versions.length === 1 ? "1 version" : `${versions.length} versions`}, newest first.
        </p>
        <Button
          variant="ghost"
          size="sm"
          className="h-7 px-2 text-muted-foreground"
          aria-pressed={revealed}
          onClick={() => setRevealed(!revealed)}
        >
          {revealed ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
          {revealed ? "Hide values" : "Reveal values"}
        </Button>
      </div>
      <ol className="grid gap-2" aria-label="Versions">
        {versions.map((version, index) => (
          <VersionItem
            key={version.id}
            version={version}
            previous={versions[index + 1]}
            more={query.hasNextPage}
            current={secret}
            isNewest={index === 0}
            expanded={expanded === version.id}
            onToggle={() => setOpen(expanded === version.id ? "" : version.id)}
            compare={index === 0 ? "previous" : compare}
            onCompareChange={setCompare}
            masked={!revealed}
            restoreDenied={
              ability.reason("edit", "secrets") ??
              (version.secretValueHidden ? "Your permissions do not let you read this version's value." : undefined)
            }
            onRestore={() => {
              update.reset();
              setRestoring(version);
            }}
          />
        ))}
      </ol>
      {query.hasNextPage ? (
        <div>
          <Button size="sm" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
            {query.isFetchingNextPage ? <Spinner /> : null}
            Show older versions
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={restoring !== undefined}
        onOpenChange={(next) => (next ? undefined : setRestoring(undefined))}
        title={`Restore version ${restoring?.version ?? ""}?`}
        description={
          <>
            <p>
              The value of <span className="font-mono">{secret.secretKey}</span> becomes the value it had in version{" "}
              {restoring?.version}, saved as a new version. Its name, comment, tags and metadata stay as they are.
            </p>
            {unsavedChanges ? <p className="mt-2">Your unsaved changes in Details will be discarded.</p> : null}
          </>
        }
        confirmLabel="Restore"
        pending={update.isPending}
        error={update.error ? errorSummary(update.error, "Could not restore the version") : undefined}
        onConfirm={() => (restoring ? void restore(restoring) : undefined)}
      />
    </div>
  );
}

interface VersionItemProps {
  version: SecretVersion;
  /** The version before this one, when it is loaded. */
  previous: SecretVersion | undefined;
  /** Older versions exist that are not loaded yet. */
  more: boolean;
  current: SecretDetail;
  isNewest: boolean;
  expanded: boolean;
  onToggle: () => void;
  compare: Compare;
  onCompareChange: (compare: Compare) => void;
  masked: boolean;
  restoreDenied: string | undefined;
  onRestore: () => void;
}

function VersionItem(props: VersionItemProps) {
  const { version, previous, more, current, isNewest, expanded, onToggle, compare, onCompareChange, masked } = props;
  const panelId = useId();
  const actor = version.actor?.name ?? version.actor?.actorType ?? undefined;
  const base =
    compare === "current"
      ? {
          label: "current value",
          value: current.secretValue,
          comment: current.secretComment,
          hidden: current.secretValueHidden,
        }
      : previous
        ? {
            label: `version ${previous.version}`,
            value: previous.secretValue,
            comment: previous.secretComment,
            hidden: previous.secretValueHidden,
          }
        : undefined;
  // Against the current value the selected version is the one to arrive at; against the previous one it is the newer.
  const [from, to] =
    compare === "current"
      ? [
          { name: `version ${version.version}`, value: version.secretValue, comment: version.secretComment },
          { name: "current", value: current.secretValue, comment: current.secretComment },
        ]
      : [
          { name: base?.label ?? "", value: base?.value ?? "", comment: base?.comment ?? "" },
          { name: `version ${version.version}`, value: version.secretValue, comment: version.secretComment },
        ];
  const hidden = version.secretValueHidden || base?.hidden === true;
  // The first version has nothing before it: it is shown on its own.
  const isFirst = previous === undefined && !more;
  const first = compare === "previous" && isFirst;

  return (
    <li className="rounded-lg border border-border bg-card">
      <button
        type="button"
        aria-expanded={expanded}
        aria-controls={panelId}
        onClick={onToggle}
        className="flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-left outline-none transition-colors hover:bg-hover focus-visible:ring-2 focus-visible:ring-ring"
      >
        <ChevronRight
          aria-hidden
          className={cn("size-4 shrink-0 text-muted-foreground transition-transform", expanded && "rotate-90")}
        />
        <span className="font-medium">Version {version.version}</span>
        {isNewest ? <Badge tone="accent">Current</Badge> : null}
        <span className="ml-auto truncate text-[13px] text-muted-foreground">
          <time dateTime={version.createdAt}>{formatDateTime(version.createdAt)}</time>
          {actor ? ` · ${actor}` : ""}
        </span>
      </button>
      {expanded ? (
        <div id={panelId} className="grid gap-4 border-t border-border px-3 py-3">
          {version.secretKey !== current.secretKey ? (
            <p className="text-[13px] text-muted-foreground">
              Named <span className="font-mono text-foreground">{version.secretKey}</span> in this version.
            </p>
          ) : null}
          {isNewest ? null : (
            <fieldset className="flex flex-wrap items-center gap-2 text-[13px]">
              <legend className="sr-only">Compare version {version.version} with</legend>
              <span aria-hidden className="text-muted-foreground">
                Compare with
              </span>
              {(["previous", "current"] as const).map((choice) => (
                <label
                  key={choice}
                  className={cn(
                    "inline-flex h-7 cursor-pointer items-center rounded-md border border-border px-2 transition-colors",
                    "has-checked:border-accent/40 has-checked:bg-accent-subtle has-checked:text-accent-subtle-foreground has-focus-visible:ring-2 has-focus-visible:ring-ring",
                  )}
                >
                  <input
                    type="radio"
                    className="sr-only"
                    name={`${panelId}-compare`}
                    checked={compare === choice}
                    onChange={() => onCompareChange(choice)}
                  />
                  {choice === "current" ? "Current value" : isFirst ? "This version alone" : "Previous version"}
                </label>
              ))}
            </fieldset>
          )}
          {base === undefined && version.version > 1 && more ? (
            <p className="text-[13px] text-muted-foreground">
              Show older versions to compare with version {version.version - 1}.
            </p>
          ) : hidden ? (
            <p className="text-[13px] text-muted-foreground">Your permissions do not let you read these values.</p>
          ) : first ? (
            <>
              <VersionDiff
                label={`Value of version ${version.version}`}
                before={version.secretValue}
                after={version.secretValue}
                masked={masked}
                single
              />
              {version.secretComment ? (
                <p className="text-[13px]">
                  <span className="font-medium">Comment: </span>
                  {version.secretComment}
                </p>
              ) : null}
            </>
          ) : (
            <>
              <VersionDiff
                label={`Value: ${from.name} → ${to.name}`}
                before={from.value}
                after={to.value}
                masked={masked}
              />
              {from.comment !== to.comment ? (
                <VersionDiff
                  label={`Comment: ${from.name} → ${to.name}`}
                  before={from.comment}
                  after={to.comment}
                  masked={false}
                />
              ) : null}
            </>
          )}
          {isNewest ? null : (
            <div className="flex justify-end">
              <PermittedButton size="sm" deniedReason={props.restoreDenied} onClick={props.onRestore}>
                <RotateCcw aria-hidden />
                Restore version {version.version}
              </PermittedButton>
            </div>
          )}
        </div>
      ) : null}
    </li>
  );
}
