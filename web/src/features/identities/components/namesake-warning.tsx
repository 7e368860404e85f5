import { ResourceName } from "@keyhold/contract";
import { useQuery } from "@tanstack/react-query";
import { TriangleAlert } from "lucide-react";
import { useDebounced } from "@/hooks/use-debounced";
import { useSession } from "@/hooks/use-session";
import { sameName, shortId } from "@/lib/identity-names";
import { identityQueries } from "../queries";

interface NamesakeWarningProps {
  id: string;
  /** The name typed. */
  name: string;
  /** The name as saved (the identity being edited keeps it without a warning). */
  savedName: string;
  /** The identity being edited, which does not count as another. */
  identityId?: string | undefined;
}

/**
 * Says when another identity already has the typed name. Servers accept a repeated name (so the
 * form does too); lists and pickers then show a short id beside each.
 */
export function NamesakeWarning({ id, name, savedName, identityId }: NamesakeWarningProps) {
  const session = useSession();
  const typed = name.trim();
  const settled = useDebounced(typed, 300);
  const asked = settled !== "" && !sameName(settled, savedName) && ResourceName.safeParse(settled).success;
  const named = useQuery({ ...identityQueries.named(session.organization.id, settled), enabled: asked });
  const others =
    asked && sameName(settled, typed) ? (named.data ?? []).filter((identity) => identity.id !== identityId) : [];
  const [first] = others;

  return (
    <div id={id} aria-live="polite">
      {first ? (
        <p className="mt-2 flex items-start gap-2 rounded-md border border-warning-border bg-warning-subtle px-3 py-2 text-[13px] text-warning-subtle-foreground">
          <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>
            <span className="font-medium">
              {others.length === 1
                ? `Another identity is already called ${first.name}`
                : `${others.length} other identities are already called ${first.name}`}
            </span>{" "}
            ({others.map((other) => `id ${shortId(other.id)}`).join(", ")}). The name can repeat; lists and pickers then
            show a short id beside each.
          </span>
        </p>
      ) : null}
    </div>
  );
}
