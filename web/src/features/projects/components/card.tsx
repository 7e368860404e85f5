import type { ReactNode } from "react";
import { cn } from "@/lib/cn";

interface CardProps {
  id: string;
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A titled section of the project overview. */
export function Card({ id, title, description, action, className, children }: CardProps) {
  return (
    <section aria-labelledby={id} className={cn("rounded-xl border border-border bg-card shadow-xs", className)}>
      <div className="flex min-h-11 items-center justify-between gap-4 border-b border-border px-4 py-2">
        <div className="grid min-w-0 gap-0.5">
          <h2 id={id} className="text-sm font-semibold">
            {title}
          </h2>
          {description ? <p className="text-[13px] text-muted-foreground">{description}</p> : null}
        </div>
        {action ? <div className="shrink-0">{action}</div> : null}
      </div>
      {children}
    </section>
  );
}

/** Why the signed-in identity cannot use this section's controls. */
export function DeniedNote({ reason }: { reason: string | undefined }) {
  if (!reason) return null;
  return (
    <p className="border-b border-border bg-surface px-4 py-2 text-[13px] text-muted-foreground" role="note">
      {reason}
    </p>
  );
}
