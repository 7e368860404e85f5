import { TriangleAlert } from "lucide-react";
import { CopyButton } from "./copy-button";

interface ShownOnceProps {
  /** The credential, shown in full this one time. */
  value: string;
  /** What it is, lower case: "access token", "client secret". */
  noun: string;
}

/** A newly created credential, with a copy button and the warning that it will not be shown again. */
export function ShownOnce({ value, noun }: ShownOnceProps) {
  return (
    <>
      <div className="flex items-start gap-2 rounded-md border border-border bg-surface p-2 pl-3">
        <code aria-label={`New ${noun}`} className="min-w-0 flex-1 py-1 font-mono text-xs break-all">
          {value}
        </code>
        <CopyButton value={value} label={`Copy ${noun}`} />
      </div>
      <p
        role="status"
        className="flex items-start gap-2 rounded-md border border-warning-border bg-warning-subtle px-3 py-2 text-[13px] text-warning-subtle-foreground"
      >
        <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
        Copy the {noun.split(" ").at(-1)} now. It will not be shown again; if it is lost, create another.
      </p>
    </>
  );
}
