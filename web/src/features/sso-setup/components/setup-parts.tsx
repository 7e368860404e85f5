import type { ReactNode } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { cn } from "@/lib/cn";

/** One value to copy into the provider's or the BFF's configuration: a label, the value in monospace, a copy button. */
export function CopyRow({ label, value, hint }: { label: string; value: string; hint?: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-[13px] font-medium">{label}</dt>
      <dd className="flex min-w-0 items-center gap-1 rounded-md border border-border bg-surface py-0.5 pr-0.5 pl-3">
        <span className="min-w-0 flex-1 font-mono text-[13px] break-all">{value}</span>
        <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
      </dd>
      {hint ? <dd className="text-[13px] text-muted-foreground">{hint}</dd> : null}
    </div>
  );
}

/** Lines of configuration to paste as they are, with one copy button for all of them. */
export function ConfigLines({ label, lines }: { label: string; lines: string[] }) {
  const text = lines.join("\n");
  return (
    <div className="relative min-w-0 rounded-md border border-border bg-surface">
      <pre
        aria-label={label}
        className="py-2.5 pr-11 pl-3 font-mono text-[13px] leading-6 break-all whitespace-pre-wrap"
      >
        {text}
      </pre>
      <div className="absolute top-1 right-1">
        <CopyButton value={text} label={`Copy ${label.toLowerCase()}`} />
      </div>
    </div>
  );
}

/** A numbered step of the set-up, as a titled card. */
export function Step({
  n,
  id,
  title,
  description,
  done,
  children,
  className,
}: {
  n: number;
  id: string;
  title: string;
  description?: ReactNode;
  done?: boolean;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      aria-labelledby={id}
      className={cn("min-w-0 rounded-xl border border-border bg-card shadow-xs", className)}
    >
      <div className="flex gap-3 border-b border-border px-4 py-3">
        <span
          aria-hidden
          className={cn(
            "mt-px flex size-5 shrink-0 items-center justify-center rounded-full text-[11px] font-semibold",
            done
              ? "bg-success-subtle text-success-subtle-foreground"
              : "bg-accent-subtle text-accent-subtle-foreground",
          )}
        >
          {n}
        </span>
        <div className="grid min-w-0 gap-0.5">
          <h2 id={id} className="text-sm font-semibold">
            {title}
          </h2>
          {description ? <p className="text-[13px] text-muted-foreground">{description}</p> : null}
        </div>
      </div>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-4 p-4">{children}</div>
    </section>
  );
}
