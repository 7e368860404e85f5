import { useQuery } from "@tanstack/react-query";
import { Command } from "cmdk";
import { Check, Search } from "lucide-react";
import { useState } from "react";
import { IdentityName } from "@/components/identities/identity-name";
import { Spinner } from "@/components/ui/spinner";
import { useDebounced } from "@/hooks/use-debounced";
import { useSession } from "@/hooks/use-session";
import { cn } from "@/lib/cn";
import { errorSummary } from "@/lib/describe-error";
import { namesakeIds } from "@/lib/identity-names";
import { accessQueries } from "../queries";

interface IdentityPickerProps {
  id: string;
  value: string;
  /** `namesake`: another identity listed has the same name. */
  onChange: (identityId: string, name: string, namesake: boolean) => void;
  /** Identities already in the project: shown, but not selectable. */
  memberIds: ReadonlySet<string>;
  invalid?: boolean;
  describedBy?: string | undefined;
}

/**
 * Searches the organisation's identities by name (on the server) and picks one; identities of
 * the same name show the start of their id.
 */
export function IdentityPicker({ id, value, onChange, memberIds, invalid, describedBy }: IdentityPickerProps) {
  const session = useSession();
  const [search, setSearch] = useState("");
  const settled = useDebounced(search.trim(), 250);
  const query = useQuery(accessQueries.orgIdentities(session.organization.id, settled));
  const results = query.data ?? [];
  const namesakes = namesakeIds(results.map(({ identity }) => identity));
  const searching = query.isFetching || settled !== search.trim();

  return (
    <Command shouldFilter={false} label="Identity" className="grid gap-2">
      <div className="relative">
        <Search
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Command.Input
          id={id}
          value={search}
          onValueChange={setSearch}
          placeholder="Search identities by name"
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={cn(
            "flex h-9 w-full rounded-md border border-input bg-card pr-9 pl-9 text-sm shadow-xs outline-none",
            "placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-3 focus-visible:ring-ring/25",
            "aria-invalid:border-destructive",
          )}
        />
        {searching ? <Spinner className="absolute top-1/2 right-3 -translate-y-1/2" /> : null}
      </div>
      <Command.List className="max-h-52 overflow-y-auto rounded-md border border-border bg-card p-1">
        {query.isError ? (
          <p role="alert" className="px-2 py-3 text-[13px] text-destructive-subtle-foreground">
            {errorSummary(query.error, "Could not search identities")}
          </p>
        ) : query.isPending ? (
          <Command.Loading>
            <p className="px-2 py-3 text-[13px] text-muted-foreground">Loading identities…</p>
          </Command.Loading>
        ) : (
          <Command.Empty className="px-2 py-3 text-[13px] text-muted-foreground">
            {settled ? `No identity's name contains “${settled}”.` : "This organization has no identities yet."}
          </Command.Empty>
        )}
        {results.map(({ identity }) => {
          const member = memberIds.has(identity.id);
          const selected = identity.id === value;
          const namesake = namesakes.has(identity.id);
          return (
            <Command.Item
              key={identity.id}
              value={identity.id}
              disabled={member}
              onSelect={() => onChange(identity.id, identity.name, namesake)}
              className={cn(
                "flex cursor-default items-center justify-between gap-2 rounded-md px-2 py-1.5 text-sm outline-none",
                "data-[selected=true]:bg-hover data-[disabled=true]:opacity-60",
              )}
            >
              <span className="flex min-w-0 items-center gap-2">
                <Check aria-hidden className={cn("size-4 shrink-0", selected ? "text-accent-text" : "invisible")} />
                <span className="truncate">
                  <IdentityName name={identity.name} id={identity.id} namesake={namesake} />
                </span>
              </span>
              {member ? <span className="text-xs text-muted-foreground">Already in this project</span> : null}
            </Command.Item>
          );
        })}
      </Command.List>
    </Command>
  );
}
