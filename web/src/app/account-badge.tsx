import type { BffSession } from "@keyhold/contract";
import { ChevronsUpDown } from "lucide-react";

function initials(name: string): string {
  const local = name.split("@")[0] ?? name;
  const parts = local.split(/[\s._-]+/).filter(Boolean);
  return (parts.length > 1 ? `${parts[0]?.[0]}${parts[1]?.[0]}` : local.slice(0, 2)).toUpperCase();
}

export const accountTriggerClasses =
  "flex h-8 min-w-0 items-center gap-2 rounded-md pr-1.5 pl-1 text-sm outline-none hover:bg-hover focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:bg-hover";

/** Who the header names: the person who signed in with single sign-on, else the identity. */
export function accountOf(session: BffSession): { name: string; identityName?: string | undefined } {
  const { person, identity } = session;
  if (!person) return { name: identity.name };
  return { name: person.email ?? person.name ?? person.subject, identityName: identity.name };
}

/**
 * The signed-in account in the top bar: initials, name and the menu chevron. A person signed in
 * with single sign-on is named first, with the identity they act as beneath (from the sm breakpoint).
 */
export function AccountBadge({ name, identityName }: { name: string; identityName?: string | undefined }) {
  return (
    <>
      <span
        aria-hidden
        className="flex size-6 shrink-0 items-center justify-center rounded-full bg-accent-subtle text-[11px] font-semibold text-accent-subtle-foreground"
      >
        {initials(name)}
      </span>
      {identityName ? (
        <span className="grid min-w-0 text-left leading-tight">
          <span className="max-w-28 truncate font-medium sm:max-w-64">{name}</span>
          <span className="hidden max-w-64 truncate text-[11px] text-muted-foreground sm:block">as {identityName}</span>
        </span>
      ) : (
        <span className="max-w-28 truncate font-medium sm:max-w-40">{name}</span>
      )}
      <ChevronsUpDown aria-hidden className="size-3.5 shrink-0 text-muted-foreground" />
    </>
  );
}
