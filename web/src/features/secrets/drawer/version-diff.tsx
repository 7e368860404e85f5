import { cn } from "@/lib/cn";
import { type DiffKind, textDiff } from "./text-diff";

interface VersionDiffProps {
  /** Names the diff for assistive technology, e.g. "Value: version 2 → version 3". */
  label: string;
  before: string;
  after: string;
  /** Show which lines changed but not what they hold (values stay masked until revealed). */
  masked: boolean;
  /** One text on its own (before and after are the same): no change count. */
  single?: boolean;
}

const rowClasses: Record<DiffKind, string> = {
  same: "",
  removed: "bg-destructive-subtle text-destructive-subtle-foreground",
  added: "bg-success-subtle text-success-subtle-foreground",
};
const marker: Record<DiffKind, string> = { same: " ", removed: "−", added: "+" };
const spoken: Record<DiffKind, string> = { same: "Unchanged", removed: "Removed", added: "Added" };
const MASK = "••••••••••••";

/** A line diff of two texts with line numbers on both sides; changed words are marked when lines pair up. */
export function VersionDiff({ label, before, after, masked, single = false }: VersionDiffProps) {
  const diff = textDiff(before, after);
  const unchanged = diff.added === 0 && diff.removed === 0;

  return (
    <figure className="grid gap-1.5">
      <figcaption className="flex items-center justify-between gap-2 text-[13px]">
        <span className="font-medium">{label}</span>
        <span className="text-muted-foreground">
          {single
            ? null
            : unchanged
              ? diff.newlineAtEndChanged
                ? "Only the final line break changed"
                : "No change"
              : `${diff.removed} removed, ${diff.added} added`}
        </span>
      </figcaption>
      <ul
        aria-label={label}
        className="overflow-x-auto rounded-md border border-border bg-surface py-1 font-mono text-[12px] leading-5"
      >
        {diff.lines.length === 0 ? <li className="px-3 text-muted-foreground italic">Empty</li> : null}
        {diff.lines.map((line, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: lines of a diff have no identity beyond their place
            key={i}
            data-kind={line.kind}
            className={cn(
              "grid whitespace-pre",
              single
                ? "grid-cols-[2.25rem_1.25rem_minmax(0,1fr)]"
                : "grid-cols-[2.25rem_2.25rem_1.25rem_minmax(0,1fr)]",
              rowClasses[line.kind],
            )}
          >
            {single ? null : (
              <span aria-hidden className="pr-2 text-right text-muted-foreground/80 select-none">
                {line.before ?? ""}
              </span>
            )}
            <span aria-hidden className="pr-2 text-right text-muted-foreground/80 select-none">
              {line.after ?? ""}
            </span>
            <span aria-hidden className="select-none">
              {marker[line.kind]}
            </span>
            <span className="pr-3">
              <span className="sr-only">{`${spoken[line.kind]}: `}</span>
              {masked ? (
                <>
                  <span className="sr-only">hidden</span>
                  <span aria-hidden>{MASK}</span>
                </>
              ) : (
                line.segments.map((segment, j) =>
                  segment.changed ? (
                    // biome-ignore lint/suspicious/noArrayIndexKey: segments of one line, in order
                    <mark key={j} className="rounded-sm bg-current/15 text-inherit">
                      {segment.text}
                    </mark>
                  ) : (
                    // biome-ignore lint/suspicious/noArrayIndexKey: segments of one line, in order
                    <span key={j}>{segment.text}</span>
                  ),
                )
              )}
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
