import { Info } from "lucide-react";

/** The sentence a preview shows when the server gave no way to read additional privileges. */
export const ROLES_ONLY_TEXT = "Additional privileges could not be read from this server; counted: roles only.";

/** Said above a preview or an access view that counted roles only, so it is never taken for the whole. */
export function RolesOnlyNotice({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <p
      role="note"
      className="flex items-start gap-2 rounded-md border border-warning-border bg-warning-subtle px-3 py-2 text-[13px] text-warning-subtle-foreground"
    >
      <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
      <span>{ROLES_ONLY_TEXT}</span>
    </p>
  );
}
