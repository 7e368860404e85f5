import { CircleAlert, LockKeyhole, RotateCw } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/cn";
import { describeError } from "@/lib/describe-error";

interface ErrorPanelProps {
  error: unknown;
  /** What failed, e.g. "Could not load identities". */
  title: string;
  onRetry?: () => void;
  action?: ReactNode;
  className?: string;
}

/** Says what failed and how to recover; a 403 names the missing permission. */
function ErrorPanel({ error, title, onRetry, action, className }: ErrorPanelProps) {
  const info = describeError(error, title);
  const Icon = info.missingPermission ? LockKeyhole : CircleAlert;
  return (
    <div
      role="alert"
      className={cn(
        "flex flex-col items-center rounded-xl border border-border bg-card px-6 py-12 text-center shadow-xs",
        className,
      )}
    >
      <div className="mb-4 flex size-10 items-center justify-center rounded-lg bg-destructive-subtle">
        <Icon aria-hidden className="size-5 text-destructive-subtle-foreground" />
      </div>
      <h2 className="text-sm font-semibold">{info.title}</h2>
      <p className="mt-1 max-w-md text-sm text-muted-foreground">{info.message}</p>
      {info.missingPermission ? (
        <p className="mt-3 text-[13px]">
          Missing permission: <span className="font-mono text-[12px]">{info.missingPermission}</span>
        </p>
      ) : null}
      {info.reqId ? (
        <p className="mt-3 text-xs text-muted-foreground">
          Request ID <span className="font-mono">{info.reqId}</span>
        </p>
      ) : null}
      {(onRetry && info.retryable) || action ? (
        <div className="mt-5 flex gap-2">
          {onRetry && info.retryable ? (
            <Button size="sm" onClick={onRetry}>
              <RotateCw aria-hidden />
              Try again
            </Button>
          ) : null}
          {action}
        </div>
      ) : null}
    </div>
  );
}

export { ErrorPanel };
