import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { SecretNameSchema } from "@keyhold/contract";
import { FolderX, KeyRound, Plus, Search, SearchX } from "lucide-react";
import { lazy, Suspense, useCallback, useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import { ErrorPanel } from "@/components/errors/error-panel";
import { PermittedButton } from "@/components/permissions/permitted-button";
import { Button, buttonVariants } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { isApiError } from "@/lib/api-error";
import type { SecretFolder } from "../api";
import { secretQueries } from "../queries";
import { filterSecrets, tagOptions } from "../secret-filter";
import type { SecretLocation } from "../secret-location";
import { type FolderListing, type SecretListRow, stagedRow } from "../secret-rows";
import { problems as stagingProblems, stagedCreates } from "../staging/staged-changes";
import { isSelectable, SecretsTable } from "./secrets-table";
import { useStaging } from "./staging-context";
import type { SecretGuards } from "./use-secret-guards";
import { useSecretSearch } from "./use-secret-location";

interface SecretsListProps {
  folder: SecretFolder;
  location: SecretLocation;
  href: (patch: Partial<SecretLocation>) => string;
  update: (patch: Partial<SecretLocation>) => void;
  guards: SecretGuards;
  onOpen: (secretKey: string) => void;
}

const count = new Intl.NumberFormat("en");

// The bulk actions and the new-row dialog load when first used.
const BulkActions = lazy(async () => ({ default: (await import("./bulk-actions")).BulkActions }));
const StageSecretDialog = lazy(async () => ({ default: (await import("./stage-secret-dialog")).StageSecretDialog }));

const NO_KEYS: ReadonlySet<string> = new Set();

/** Why the service would refuse a key, in the contract's words. */
const validKey = (key: string) => {
  const parsed = SecretNameSchema.safeParse(key);
  return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? "This key is not valid");
};

/** The folder's secrets, read once for the list below; typing in its search box does not render this again. */
export function SecretsList(props: SecretsListProps) {
  const list = useQuery(secretQueries.list(props.folder));
  return <FilteredSecrets list={list} {...props} />;
}

/**
 * The folder's secrets with the search box and tag filter. Filtering happens in memory on every
 * keystroke, from the list's precomputed lowercase keys, and the table renders the filtered rows
 * in the same render as the typed text, so the frame that shows a keystroke shows its result.
 * (A deferred value would paint the text first and the table a frame or more later.)
 */
function FilteredSecrets({
  list,
  folder,
  location,
  href,
  update,
  guards,
  onOpen,
}: SecretsListProps & { list: UseQueryResult<FolderListing> }) {
  const { text: search, setText } = useSecretSearch(location.search);
  const index = list.data?.rows;
  const imported = list.data?.importedCount ?? 0;
  const { staged } = useStaging();
  const listed = useMemo(
    () => (index ? filterSecrets(index, search, location.tag) : []),
    [index, search, location.tag],
  );
  // Secrets staged to be created are listed first, filtered like the others (they have no tags yet).
  const rows = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const added = location.tag
      ? []
      : stagedCreates(staged, folder)
          .filter((create) => create.secretKey.toLowerCase().includes(needle))
          .map((create) => stagedRow(create, folder));
    return added.length === 0 ? listed : [...added, ...listed];
  }, [listed, staged, folder, search, location.tag]);
  const ownKeys = useMemo(() => new Set(list.data?.secrets.map((secret) => secret.secretKey)), [list.data]);
  const problems = useMemo(
    () =>
      new Map(
        stagingProblems(staged, folder, ownKeys, validKey).map((problem) => [problem.secretKey, problem.message]),
      ),
    [staged, folder, ownKeys],
  );
  const selection = useSelection(folder, rows);
  const [adding, setAdding] = useState(false);
  const tags = useMemo(() => (index ? tagOptions(index.secrets) : []), [index]);
  const total = index?.secrets.length ?? 0;
  const filtered = search.trim() !== "" || location.tag !== undefined;
  // A tag in the URL that no secret here carries still shows, so it can be cleared.
  const tagChoices =
    location.tag && !tags.some((tag) => tag.slug === location.tag)
      ? [...tags, { slug: location.tag, color: null, count: 0 }]
      : tags;

  return (
    <section aria-label="Secret list" className="grid min-w-0 gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <div className="relative w-full max-w-xs">
          <label htmlFor="secret-search" className="sr-only">
            Search secrets by key
          </label>
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            id="secret-search"
            type="search"
            value={search}
            onChange={(event) => setText(event.target.value)}
            placeholder="Search by key"
            className="pl-9"
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <label className="flex items-center gap-2 text-[13px] text-muted-foreground">
          Tag
          <Select
            value={location.tag ?? ""}
            onChange={(event) => update({ tag: event.target.value || undefined })}
            className="min-w-40"
          >
            <option value="">All tags</option>
            {tagChoices.map((tag) => (
              <option key={tag.slug} value={tag.slug}>
                {tag.slug} ({tag.count})
              </option>
            ))}
          </Select>
        </label>
        {index ? (
          <p className="text-[13px] text-muted-foreground tabular-nums" role="status">
            {filtered
              ? `${count.format(rows.length)} of ${count.format(total)} ${total === 1 ? "secret" : "secrets"}`
              : `${count.format(total)} ${total === 1 ? "secret" : "secrets"}`}
            {imported > 0 && !filtered ? `, ${count.format(imported)} imported` : null}
          </p>
        ) : null}
        <div className="ml-auto flex items-center gap-2">
          <PermittedButton
            size="sm"
            variant="secondary"
            deniedReason={guards.create}
            disabled={!index}
            onClick={() => setAdding(true)}
          >
            <Plus aria-hidden />
            Add row
          </PermittedButton>
        </div>
      </div>
      {selection.keys.size > 0 ? (
        <Suspense fallback={<div className="h-12 rounded-lg border border-border bg-surface" />}>
          <BulkActions folder={folder} guards={guards} secretKeys={selection.keys} onClear={selection.clear} />
        </Suspense>
      ) : null}
      {adding ? (
        <Suspense fallback={null}>
          <StageSecretDialog
            folder={folder}
            open={adding}
            onOpenChange={setAdding}
            existingKeys={index ? ownKeys : NO_KEYS}
          />
        </Suspense>
      ) : null}
      {list.isPending ? (
        <TableSkeleton />
      ) : list.isError ? (
        isApiError(list.error, 404) && folder.secretPath !== "/" ? (
          <EmptyState
            icon={FolderX}
            title={`There is no folder ${folder.secretPath} in ${folder.environment}`}
            description="It may have been deleted or renamed, or it exists only in another environment."
            action={
              <Link to={href({ secretPath: "/" })} className={buttonVariants({ size: "sm" })}>
                Go to the root folder
              </Link>
            }
          />
        ) : (
          <ErrorPanel error={list.error} title="Could not load the secrets" onRetry={() => void list.refetch()} />
        )
      ) : total === 0 && rows.length === 0 ? (
        <EmptyState
          icon={KeyRound}
          title="No secrets in this folder"
          description="Create a secret with the button above, or open a folder."
        />
      ) : rows.length === 0 ? (
        <EmptyState
          icon={SearchX}
          title="No secrets match"
          description={
            search.trim() && location.tag
              ? `No key here contains “${search.trim()}” with the tag ${location.tag}.`
              : search.trim()
                ? `No key here contains “${search.trim()}”.`
                : `No secret here has the tag ${location.tag}.`
          }
          action={
            <Button
              size="sm"
              onClick={() => {
                setText("");
                update({ search: "", tag: undefined });
              }}
            >
              Clear filters
            </Button>
          }
        />
      ) : (
        <>
          <SecretsTable
            rows={rows}
            folder={folder}
            guards={guards}
            onOpen={onOpen}
            problems={problems}
            selected={selection.keys}
            onSelect={selection.select}
            onSelectAll={selection.selectAll}
          />
          {imported > 0 ? (
            <p className="text-[13px] text-muted-foreground">
              Imported secrets are read-only here: open one in its own folder to change it. The folder&apos;s own
              secrets win over its imports; among imports, the later one wins.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

/**
 * Which rows are selected for bulk actions, by key, for the folder shown (another folder starts
 * with none). A click selects or unselects one row; Shift-click gives every row from the last one
 * clicked to this one the state this one takes; "all" takes every selectable row matching the search.
 */
function useSelection(folder: SecretFolder, rows: readonly SecretListRow[]) {
  const [state, setState] = useState<{ folder: SecretFolder; keys: ReadonlySet<string> }>({ folder, keys: NO_KEYS });
  const anchor = useRef<string | undefined>(undefined);
  const keys = state.folder === folder ? state.keys : NO_KEYS;

  const select = useCallback(
    (index: number, range: boolean) => {
      const row = rows[index];
      if (!row) return;
      // Read now: the state update below runs later, after the anchor has moved to this row.
      const from = range && anchor.current ? rows.findIndex((r) => r.secretKey === anchor.current) : -1;
      anchor.current = row.secretKey;
      setState((current) => {
        const next = new Set(current.folder === folder ? current.keys : NO_KEYS);
        const on = !next.has(row.secretKey);
        if (from === -1) {
          if (on) next.add(row.secretKey);
          else next.delete(row.secretKey);
        } else {
          for (let i = Math.min(from, index); i <= Math.max(from, index); i++) {
            const each = rows[i] as SecretListRow;
            if (!isSelectable(each)) continue;
            if (on) next.add(each.secretKey);
            else next.delete(each.secretKey);
          }
        }
        return { folder, keys: next };
      });
    },
    [folder, rows],
  );
  const selectAll = useCallback(
    (all: boolean) => {
      anchor.current = undefined;
      setState({
        folder,
        keys: all ? new Set(rows.filter(isSelectable).map((row) => row.secretKey)) : NO_KEYS,
      });
    },
    [folder, rows],
  );
  const clear = useCallback(() => selectAll(false), [selectAll]);
  return { keys, select, selectAll, clear };
}

function TableSkeleton() {
  return (
    <div className="overflow-hidden rounded-xl border border-border bg-card" aria-busy="true">
      <span className="sr-only" role="status">
        Loading secrets…
      </span>
      <div className="h-9 border-b border-border bg-surface" />
      {[0, 1, 2, 3, 4, 5].map((row) => (
        <div key={row} className="flex h-12 items-center gap-6 border-b border-border px-4 last:border-0">
          <Skeleton className="h-4 w-48" />
          <Skeleton className="h-4 w-40" />
          <Skeleton className="ml-auto h-4 w-24" />
        </div>
      ))}
    </div>
  );
}
