import type { ReactNode } from "react";
import { cn } from "@/lib/cn";

interface SettingsSectionProps {
  id: string;
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A titled card of the settings page; its heading names it for assistive technology. */
export function SettingsSection({ id, title, description, action, className, children }: SettingsSectionProps) {
  return (
    <section
      aria-labelledby={id}
      className={cn("min-w-0 rounded-xl border border-border bg-card shadow-xs", className)}
    >
      <div className="flex min-h-11 flex-wrap items-center justify-between gap-x-4 gap-y-2 border-b border-border px-4 py-2.5">
        <div className="grid min-w-0 flex-1 basis-56 gap-0.5">
          <h3 id={id} className="text-sm font-semibold">
            {title}
          </h3>
          {description ? <p className="text-[13px] text-muted-foreground">{description}</p> : null}
        </div>
        {action ? <div className="shrink-0">{action}</div> : null}
      </div>
      {children}
    </section>
  );
}

/** A sentence saying what this server does not offer, in place of the controls for it. */
export function UnavailableNote({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p
      id={id}
      role="note"
      className="rounded-md border border-border bg-surface px-3 py-2 text-[13px] text-muted-foreground"
    >
      {children}
    </p>
  );
}

/** A small inline failure with a retry, for one part of a section. */
export function InlineError({ children, onRetry }: { children: ReactNode; onRetry?: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-destructive/40 bg-destructive-subtle px-3 py-2 text-[13px] text-destructive-subtle-foreground"
    >
      <span className="min-w-0 flex-1">{children}</span>
      {onRetry ? (
        <button
          type="button"
          onClick={onRetry}
          className="shrink-0 rounded-sm font-medium underline underline-offset-2 outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          Try again
        </button>
      ) : null}
    </div>
  );
}
