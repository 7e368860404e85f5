import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { FolderX, KeyRound, Search, SearchX } from "lucide-react";
import { useMemo } from "react";
import { Link } from "react-router";
import { ErrorPanel } from "@/components/errors/error-panel";
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
import type { FolderListing } from "../secret-rows";
import { SecretsTable } from "./secrets-table";
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
  const rows = useMemo(() => (index ? filterSecrets(index, search, location.tag) : []), [index, search, location.tag]);
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
          <p className="ml-auto text-[13px] text-muted-foreground tabular-nums" role="status">
            {filtered
              ? `${count.format(rows.length)} of ${count.format(total)} ${total === 1 ? "secret" : "secrets"}`
              : `${count.format(total)} ${total === 1 ? "secret" : "secrets"}`}
            {imported > 0 && !filtered ? `, ${count.format(imported)} imported` : null}
          </p>
        ) : null}
      </div>
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
      ) : total === 0 ? (
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
          <SecretsTable rows={rows} folder={folder} guards={guards} onOpen={onOpen} />
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
