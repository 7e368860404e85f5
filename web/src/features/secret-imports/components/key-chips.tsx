import { useState } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/cn";
import type { ProvidedKey } from "../provided-keys";

const SHOWN = 12;

interface KeyChipsProps {
  /** The import's source, naming the list for assistive technology. */
  label: string;
  keys: ProvidedKey[] | undefined;
  state: "loading" | "error" | "ready";
  labelOf: (importId: string) => string;
}

/** The keys an import provides (names only), each marked when another source supplies it instead. */
export function KeyChips({ label, keys, state, labelOf }: KeyChipsProps) {
  const [expanded, setExpanded] = useState(false);
  if (state === "loading") return <Skeleton className="mt-1.5 h-5 w-48" />;
  // Why is said once, above the list.
  if (state === "error") return <p className="pt-1.5 text-[13px] text-muted-foreground">Keys unknown.</p>;
  if (keys === undefined)
    return (
      <p className="pt-1.5 text-[13px] text-muted-foreground">The server did not report this import&apos;s keys.</p>
    );
  if (keys.length === 0) return <p className="pt-1.5 text-[13px] text-muted-foreground">No secrets in this folder.</p>;

  const shown = expanded ? keys : keys.slice(0, SHOWN);
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-1.5 pt-1">
      <ul aria-label={`Keys from ${label}`} className="contents">
        {shown.map(({ key, winner }) => {
          const overriddenBy =
            winner.kind === "local"
              ? "this folder's own secret"
              : winner.kind === "import"
                ? labelOf(winner.importId)
                : undefined;
          return (
            <li
              key={key}
              className={cn(
                "inline-flex h-6 max-w-full items-center gap-1.5 rounded-md border px-1.5 font-mono text-xs",
                overriddenBy
                  ? "border-dashed border-border text-muted-foreground"
                  : "border-border bg-muted text-foreground",
              )}
            >
              {/* The key comes first: on a narrow screen the note is cut short, not the key. */}
              <span className={cn("max-w-full shrink-0 truncate", overriddenBy && "line-through")}>{key}</span>
              {overriddenBy ? (
                <span className="min-w-0 truncate font-sans text-[11px] no-underline">
                  overridden by {overriddenBy}
                </span>
              ) : (
                <>
                  <span aria-hidden className="tracking-widest text-muted-foreground">
                    ••••
                  </span>
                  <span className="sr-only">(value hidden)</span>
                </>
              )}
            </li>
          );
        })}
      </ul>
      {keys.length > SHOWN ? (
        <button
          type="button"
          className="rounded-sm text-xs font-medium text-accent-text outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? "Show fewer" : `Show all ${keys.length}`}
        </button>
      ) : null}
    </div>
  );
}
