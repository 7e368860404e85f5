import { ChevronsUpDown } from "lucide-react";

function initials(name: string): string {
  const parts = name.split(/[\s_-]+/).filter(Boolean);
  return (parts.length > 1 ? `${parts[0]?.[0]}${parts[1]?.[0]}` : name.slice(0, 2)).toUpperCase();
}

export const accountTriggerClasses =
  "flex h-8 items-center gap-2 rounded-md pr-1.5 pl-1 text-sm outline-none hover:bg-hover focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:bg-hover";

/** The signed-in identity in the top bar: initials, name and the menu chevron. */
export function AccountBadge({ name }: { name: string }) {
  return (
    <>
      <span
        aria-hidden
        className="flex size-6 items-center justify-center rounded-full bg-accent-subtle text-[11px] font-semibold text-accent-subtle-foreground"
      >
        {initials(name)}
      </span>
      <span className="max-w-40 truncate font-medium">{name}</span>
      <ChevronsUpDown aria-hidden className="size-3.5 text-muted-foreground" />
    </>
  );
}
