import type { PermissionRuleInput } from "@keyhold/contract";
import { CopyButton } from "@/components/ui/copy-button";
import { cn } from "@/lib/cn";

export interface PermissionRulesJsonProps {
  /** The same rules the editor shows, as the API takes and returns them. */
  value: PermissionRuleInput[];
  /** Names the block for assistive technology; "Permission rules as JSON" unless given. */
  label?: string;
  className?: string;
}

/** The rules as pretty-printed JSON, read-only, with a copy button. */
export function PermissionRulesJson({
  value,
  label = "Permission rules as JSON",
  className,
}: PermissionRulesJsonProps) {
  const json = JSON.stringify(value, null, 2);
  return (
    <section
      aria-label={label}
      className={cn("relative rounded-xl border border-border bg-surface shadow-xs", className)}
    >
      <div className="flex items-center justify-between border-b border-border px-4 py-1.5">
        <p className="text-xs text-muted-foreground">
          {value.length === 1 ? "1 rule" : `${value.length} rules`}, in the API's format
        </p>
        <CopyButton value={json} label="Copy the rules as JSON" />
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <pre
        tabIndex={0}
        className="max-h-[32rem] overflow-auto p-4 font-mono text-[12.5px] leading-5 outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <code>{json}</code>
      </pre>
    </section>
  );
}
